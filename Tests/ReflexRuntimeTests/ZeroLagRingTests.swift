import ReflexRuntime
import ReflexCore
import ReflexISP
import Testing
@testable import ReflexHardware

/// The zero-lag ring: frames kept, taken without a copy, held while no spare is free.
@Suite struct ZeroLagRingTests {
    static let mode = CameraSession.Mode(path: "test", card: "test", fourCC: 0x3231_4752, width: 4, height: 2,
                                         bytesPerLine: 8, rawFormat: SimulatedScene.format, framesPerSecond: 30)

    /// Frame `sequence`: its bytes all `sequence`, ending at `sequence` × 33 ms.
    static func deliver(_ sequence: UInt32, to ring: ZeroLagRing) {
        let bytes = [UInt8](repeating: UInt8(sequence), count: 16)
        bytes.withUnsafeBytes {
            ring.deliver(SensorFrame(bytes: $0, mode: mode, sequence: sequence,
                                     timestampNanoseconds: Int64(sequence) * 33_333_333,
                                     exposure: ExposureSetting(exposure: 0.01, analogGain: 1), parameters: nil, sensorZoom: 1))
        }
    }

    static func press(atFrame sequence: UInt32) -> ShutterMoment {
        ShutterMoment(pressNanoseconds: Int64(sequence) * 33_333_333 - 10_000_000, frameSeconds: 1.0 / 30, mark: .endOfFrame)
    }

    @Test func aPhotoLeavesWithItsFrameAndASpareTakesItsPlace() throws {
        let ring = ZeroLagRing(ringFrames: 3, spares: 1, frameBytes: 16)
        for sequence in UInt32(1)...5 { Self.deliver(sequence, to: ring) }
        #expect(ring.choose(Self.press(atFrame: 4)) == .take(4))
        let copy = try #require(ring.take(sequence: 4))
        #expect(copy.sequence == 4 && copy.frame.allSatisfy { $0 == 4 })
        #expect(ring.photosOut == 1)
        // The ring goes on with the spare: frame 4's memory is the photo's until given back.
        for sequence in UInt32(6)...9 { Self.deliver(sequence, to: ring) }
        #expect(copy.frame.allSatisfy { $0 == 4 }, "untouched while the photo holds it")
        ring.giveBack(copy)
        #expect(ring.photosOut == 0)
    }

    @Test func withNoSpareFreeThePressesFrameIsHeldUntilOneIs() throws {
        let ring = ZeroLagRing(ringFrames: 3, spares: 1, frameBytes: 16)
        for sequence in UInt32(1)...3 { Self.deliver(sequence, to: ring) }
        let first = try #require(ring.take(sequence: 2))
        Self.deliver(4, to: ring)
        // The only spare is out: frame 4 is held, and later frames pass it by.
        #expect(ring.take(sequence: 4) == nil)
        for sequence in UInt32(5)...12 { Self.deliver(sequence, to: ring) }
        #expect(ring.choose(Self.press(atFrame: 4)) == .take(4), "frame 4 is still kept")
        ring.giveBack(first)
        let second = try #require(ring.take(sequence: 4))
        #expect(second.frame.allSatisfy { $0 == 4 })
    }

    /// Enhanced RAW's other frames: the nearest to the press first, out of the ring without a
    /// copy while spares last, and back with the photo.
    @Test func aMergeTakesTheNearestFramesWhileSparesLast() throws {
        let ring = ZeroLagRing(ringFrames: 6, spares: 4, frameBytes: 16)
        for sequence in UInt32(1)...6 { Self.deliver(sequence, to: ring) }
        let reference = try #require(ring.take(sequence: 4))
        var alternates: [FrameCopy] = []
        ring.takeAlternates(around: 4, count: 7) { alternates.append($0) }
        // Three spares were left: frames 3 and 5 (one frame away), then 2 or 6.
        try #require(alternates.count == 3)
        #expect(ring.photosOut == 4)
        #expect(Set(alternates.prefix(2).map(\.sequence)) == [3, 5])
        #expect([2, 6].contains(alternates[2].sequence))
        #expect(alternates.allSatisfy { copy in copy.frame.allSatisfy { $0 == UInt8(copy.sequence) } }, "their own bytes")
        // The ring goes on with what it has left; everything comes back with the photo.
        for sequence in UInt32(7)...12 { Self.deliver(sequence, to: ring) }
        #expect(alternates.allSatisfy { copy in copy.frame.allSatisfy { $0 == UInt8(copy.sequence) } }, "untouched while held")
        for copy in alternates + [reference] { ring.giveBack(copy) }
        #expect(ring.photosOut == 0)
    }

    /// Memory pressure: the ring keeps fewer frames and lets fewer photos out, and the
    /// memory of every copy out of use goes back at once; the full ring again once it eases.
    @Test func underMemoryPressureTheRingGivesItsMemoryBack() throws {
        let ring = ZeroLagRing(ringFrames: 6, spares: 4, frameBytes: 16)
        for sequence in UInt32(1)...8 { Self.deliver(sequence, to: ring) }
        let out = try #require(ring.take(sequence: 8))
        #expect(ring.reservedBytes == 10 * 16, "every copy holds a frame")
        let released = ring.limit(ringFrames: 2, photosOut: 1)
        // 4 ring positions and 3 free spares let go; the photo out and the 2 kept stay.
        #expect(released == 7 * 16 && ring.reservedBytes == 3 * 16)
        for sequence in UInt32(9)...14 { Self.deliver(sequence, to: ring) }
        #expect(ring.reservedBytes <= 3 * 16 + 2 * 16, "new frames cycle through 2 positions")
        #expect(ring.choose(Self.press(atFrame: 12)) == .late(13), "only the last 2 frames are kept")
        #expect(ring.take(sequence: 14) == nil, "one photo out at most: the frame is held for it")
        ring.giveBack(out)
        let next = try #require(ring.take(sequence: 14))
        #expect(next.frame.allSatisfy { $0 == 14 })
        ring.giveBack(next)
        // Eased: the whole ring keeps frames again (its memory comes back as they fill it).
        ring.limit(ringFrames: 6, photosOut: 4)
        for sequence in UInt32(15)...22 { Self.deliver(sequence, to: ring) }
        #expect(ring.choose(Self.press(atFrame: 17)) == .take(17), "six frames kept again")
    }
}

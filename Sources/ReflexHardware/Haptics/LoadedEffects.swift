import CLinux
import ReflexCore

/// A vibrator as the realtime loop sees it: its descriptor and the ids of its effects, packed
/// into one 64-bit word so the haptics thread can hand it over (or take it back) with one
/// atomic store, and the loop play from it with no lock and no allocation.
struct LoadedEffects: Equatable {
    let descriptor: Int32
    /// Effect ids in `HapticEffect` order (a device gives small ids: 0, 1, 2…).
    let effectIDs: [UInt8]

    init(descriptor: Int32, effectIDs: [UInt8]) {
        precondition(effectIDs.count == HapticEffect.allCases.count && HapticEffect.allCases.count <= 4)
        self.descriptor = descriptor
        self.effectIDs = effectIDs
    }

    /// 0 means no vibrator; otherwise descriptor + 1 in the low half, one id a byte above.
    var packed: UInt64 {
        var word = UInt64(UInt32(bitPattern: descriptor + 1))
        for (index, id) in effectIDs.enumerated() { word |= UInt64(id) << (32 + 8 * index) }
        return word
    }

    init?(packed: UInt64) {
        guard packed != 0 else { return nil }
        self.init(descriptor: Int32(bitPattern: UInt32(truncatingIfNeeded: packed)) - 1,
                  effectIDs: HapticEffect.allCases.map { UInt8(truncatingIfNeeded: packed >> (32 + 8 * $0.rawValue)) })
    }

    /// Plays `effect` from a packed word without unpacking into an array (the loop's path).
    /// Returns 0 or -errno.
    static func play(_ effect: HapticEffect, from packed: UInt64) -> Int32 {
        let descriptor = Int32(bitPattern: UInt32(truncatingIfNeeded: packed)) - 1
        let id = Int32(UInt8(truncatingIfNeeded: packed >> (32 + 8 * effect.rawValue)))
        return reflex_evdev_play(descriptor, id)
    }
}

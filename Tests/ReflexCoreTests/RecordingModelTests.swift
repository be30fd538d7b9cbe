import Testing
@testable import ReflexCore

/// The pure side of recording: which frames a movie keeps, the card's budget, the labels.
@Suite struct RecordingModelTests {
    static let frame30: Int64 = 33_333_333, frame60: Int64 = 16_666_667

    @Test func aThirtyFrameSensorGivesEveryFrameDespiteJitter() {
        var pacer = FramePacer(framesPerSecond: 30)
        let start: Int64 = 5_000_000_000
        let jitter: [Int64] = [0, 900_000, -1_200_000, 3_000_000, -4_000_000, 0]
        let slots = jitter.indices.map { pacer.slot(forFrameAt: start + Int64($0) * Self.frame30 + jitter[$0]) }
        #expect(slots == [0, 1, 2, 3, 4, 5])
        #expect(pacer.startNanoseconds == start)
    }

    @Test func aSixtyFrameSensorGivesEveryOtherFrame() {
        var pacer = FramePacer(framesPerSecond: 30)
        let kept = (0..<120).compactMap { pacer.slot(forFrameAt: Int64($0) * Self.frame60) }
        // Two seconds less one sensor frame: slots 0 … 60.
        #expect(kept.count == 61)
        #expect(kept == kept.sorted() && Set(kept).count == kept.count)
        #expect(kept.last == 60)
    }

    @Test func aDroppedFrameLeavesItsSlotEmpty() {
        var pacer = FramePacer(framesPerSecond: 30)
        let slots = [0, 1, 3, 4].map { pacer.slot(forFrameAt: Int64($0) * Self.frame30) }
        #expect(slots == [0, 1, 3, 4])
        pacer.reset()
        #expect(pacer.slot(forFrameAt: 99) == 0)
    }

    @Test func theCardsBudgetKeepsAReserveAndNeedsRoomToStart() {
        let budget = RecordingBudget(bytesPerSecond: 2_000_000)
        #expect(budget.reserveBytes == 6_000_000 + 32 << 20)
        #expect(budget.secondsLeft(freeBytes: budget.reserveBytes + 120_000_000) == 60)
        #expect(budget.secondsLeft(freeBytes: 1000) == 0)
        #expect(!budget.canStart(freeBytes: budget.reserveBytes + 19_000_000))
        #expect(budget.canStart(freeBytes: budget.reserveBytes + 20_000_000))
        #expect(budget.stopReason(freeBytes: budget.reserveBytes, fileBytes: 0, onFAT: false) == nil)
        #expect(budget.stopReason(freeBytes: budget.reserveBytes - 1, fileBytes: 0, onFAT: false) == .cardFull)
        #expect(budget.stopReason(freeBytes: 1 << 40, fileBytes: RecordingBudget.fatFileLimit - 1000, onFAT: true) == .fileSizeLimit)
        #expect(budget.stopReason(freeBytes: 1 << 40, fileBytes: RecordingBudget.fatFileLimit - 1000, onFAT: false) == nil)
    }

    @Test func theBoardsVideoFile() throws {
        #expect(try BoardVideo.parse("").get() == BoardVideo(format: .fullHD, microphone: "default"))
        #expect(try BoardVideo.parse("size = 720p\nmicrophone = plughw:CARD=Intel,DEV=0\n").get()
                == BoardVideo(format: .hd, microphone: "plughw:CARD=Intel,DEV=0"))
        #expect(try BoardVideo.parse("microphone = none").get().microphone == nil)
        #expect(try BoardVideo.parse("").get().speaker == "default")
        #expect(try BoardVideo.parse("speaker = hw:1,0").get().speaker == "hw:1,0")
        #expect(try BoardVideo.parse("speaker = none").get().speaker == nil)
        if case .success = BoardVideo.parse("size = 4k") { Issue.record("4k is not a size") }
        if case .success = BoardVideo.parse("fps = 60") { Issue.record("no such key") }
    }

    @Test func videoFormatsAndLabels() {
        #expect(VideoFormat(named: "1080p") == .fullHD)
        #expect(VideoFormat(named: "720P") == .hd)
        #expect(VideoFormat(named: "4k") == nil)
        #expect(VideoFormat.fullHD.name == "1080p30")
        #expect(VideoFormat.fullHD.bytesPerSecond(audioBitRate: 128_000) == (15_000_000 + 128_000) / 8 + 16 * 1024)
        #expect(Formatting.recordingTime(7.9) == "0:07")
        #expect(Formatting.recordingTime(754) == "12:34")
        #expect(Formatting.recordingTime(3723) == "1:02:03")
        #expect(Formatting.recordingTimeLeft(45) == "45 s")
        #expect(Formatting.recordingTimeLeft(25 * 60 + 5) == "25 min")
        #expect(Formatting.recordingTimeLeft(130 * 60) == "2 h 10 min")
        #expect(Formatting.recordingTimeLeft(120 * 60) == "2 h")
    }
}

@Suite struct VideoFramingTests {
    @Test func aMovieShowsTheCentreOfTheFrameInItsOwnShape() {
        #expect(VideoFraming.crop(sourceWidth: 1280, sourceHeight: 720, movieWidth: 1920, movieHeight: 1080, zoom: 1)
                == PixelRect(x: 0, y: 0, width: 1280, height: 720))
        // A 4:3 sensor in a 16:9 movie: its top and bottom go.
        #expect(VideoFraming.crop(sourceWidth: 1640, sourceHeight: 1232, movieWidth: 1920, movieHeight: 1080, zoom: 1)
                == PixelRect(x: 0, y: 154, width: 1640, height: 922))
        // Zoomed 2x: the centre half, on even pixels.
        #expect(VideoFraming.crop(sourceWidth: 1280, sourceHeight: 720, movieWidth: 1920, movieHeight: 1080, zoom: 2)
                == PixelRect(x: 320, y: 180, width: 640, height: 360))
        // A portrait-shaped frame keeps its width.
        #expect(VideoFraming.crop(sourceWidth: 720, sourceHeight: 1280, movieWidth: 1280, movieHeight: 720, zoom: 1)
                == PixelRect(x: 0, y: 438, width: 720, height: 404))
    }
}

@Suite struct AudioTimelineTests {
    static let rate = 48_000
    static func nanoseconds(samples: Int64) -> Int64 { samples * 1_000_000_000 / Int64(rate) }

    @Test func samplesBeforeTheFirstFrameAreDroppedAndTheRestRunOn() {
        var timeline = AudioTimeline(sampleRate: Self.rate)
        #expect(timeline.place(count: 1024, capturedAt: 5_000_000_000) == nil, "no time zero yet")
        let start: Int64 = 10_000_000_000
        timeline.start(atNanoseconds: start)
        // A chunk that began 600 samples before time zero: its first 600 are dropped.
        let first = timeline.place(count: 1024, capturedAt: start - Self.nanoseconds(samples: 600))
        #expect(first?.skip == 600 && first?.index == 0)
        // The next chunk's stamp is off by a few samples (jitter): it follows on exactly.
        let second = timeline.place(count: 1024, capturedAt: start + Self.nanoseconds(samples: 424 + 7))
        #expect(second?.skip == 0 && second?.index == 424)
        let third = timeline.place(count: 1024, capturedAt: start + Self.nanoseconds(samples: 1448 - 20))
        #expect(third?.index == 1448)
    }

    @Test func aGapInTheClockIsFollowed() {
        var timeline = AudioTimeline(sampleRate: Self.rate)
        timeline.start(atNanoseconds: 0)
        #expect(timeline.place(count: 1024, capturedAt: 0)?.index == 0)
        // An overrun lost half a second: the sound picks up where the clock says.
        #expect(timeline.place(count: 1024, capturedAt: Self.nanoseconds(samples: 1024 + 24_000))?.index == 25_024)
        // A whole chunk before time zero is dropped.
        var late = AudioTimeline(sampleRate: Self.rate)
        late.start(atNanoseconds: 1_000_000_000)
        #expect(late.place(count: 1024, capturedAt: 0) == nil)
    }

    /// A microphone stamped on another clock than the frames (hours apart) starts with the
    /// movie and runs on, rather than behind hours of silence; its gaps are still followed.
    @Test func aMicrophoneOnAnotherClockStartsWithTheMovie() {
        var timeline = AudioTimeline(sampleRate: Self.rate)
        let start: Int64 = 1_000_000_000_000
        let hourLater = start + 3_600_000_000_000
        timeline.start(atNanoseconds: start)
        #expect(timeline.place(count: 1024, capturedAt: hourLater)?.index == 0)
        #expect(timeline.clocksApartSeconds == 3600)
        #expect(timeline.place(count: 1024, capturedAt: hourLater + Self.nanoseconds(samples: 1024 + 3))?.index == 1024)
        #expect(timeline.place(count: 1024, capturedAt: hourLater + Self.nanoseconds(samples: 2048 + 24_000))?.index == 26_048)
        // On one clock, nothing is said.
        var same = AudioTimeline(sampleRate: Self.rate)
        same.start(atNanoseconds: start)
        _ = same.place(count: 1024, capturedAt: start + 5_000_000_000)
        #expect(same.clocksApartSeconds == nil)
    }
}

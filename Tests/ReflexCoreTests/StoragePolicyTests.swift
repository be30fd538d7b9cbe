import ReflexCore
import Testing

/// Story 4.8's thresholds and counts, with given sizes.
@Suite struct StoragePolicyTests {
    static let twelveMegapixels = 4056 * 3040

    @Test func noCardIsMissingAndPlentyOfSpaceSaysNothing() {
        let policy = StoragePolicy(sensorPixels: Self.twelveMegapixels)
        #expect(policy.indicator(freeBytes: nil, format: .raw) == .missing)
        #expect(policy.indicator(freeBytes: 500_000_000, format: .raw) == .ready)
        #expect(policy.indicator(freeBytes: 499_000_000, format: .raw) == .low(policy.advice(freeBytes: 499_000_000, format: .raw)))
        // A locked card has no room, but it is not full: deleting photos would not help.
        #expect(policy.indicator(freeBytes: 0, readOnly: true, format: .raw) == .readOnly)
        let advice = policy.advice(freeBytes: 8_000_000_000, format: .raw)
        #expect(advice.level == .plenty && advice.text == nil && advice.atPress == nil)
        #expect(advice.shotsLeft > 300)
    }

    @Test func below500MBTheShotsLeftInTheChosenFormat() {
        var policy = StoragePolicy(sensorPixels: Self.twelveMegapixels)
        // This camera's files, as saved: 24.7 MB DNGs, 4 MB JPEGs.
        policy.recordSaved(rawBytes: 24_700_000, jpegBytes: 4_000_000)
        let raw = policy.advice(freeBytes: 400_000_000, format: .raw)
        #expect(raw.level == .low)
        #expect(raw.shotsLeft == 400_000_000 / (24_700_000 + 262_144))
        #expect(raw.text == "Low storage · 16 RAW left")
        #expect(raw.atPress == nil, "no interruption yet")
        let jpeg = policy.advice(freeBytes: 400_000_000, format: .jpeg)
        #expect(jpeg.text == "Low storage · 93 JPEG left")
        let both = policy.advice(freeBytes: 400_000_000, format: .rawPlusJPEG)
        #expect(both.shotsLeft == 400_000_000 / (28_700_000 + 2 * 262_144))
    }

    @Test func below100MBAProminentWarningAtEachPressAndFullWhenOneMoreWillNotFit() {
        var policy = StoragePolicy(sensorPixels: Self.twelveMegapixels)
        policy.recordSaved(rawBytes: 24_700_000, jpegBytes: 4_000_000)
        let critical = policy.advice(freeBytes: 60_000_000, format: .raw)
        #expect(critical.level == .critical && critical.shotsLeft == 2)
        #expect(critical.atPress == "Storage almost full: 2 RAW left")
        let full = policy.advice(freeBytes: 20_000_000, format: .raw)
        #expect(full.level == .full && full.shotsLeft == 0)
        #expect(full.text == "Storage full")
        #expect(full.atPress == "Storage full – photo not saved")
        #expect(StorageAdvice.fullSuggestion(format: .raw) == "free space, or switch to JPEG")
        // JPEG still fits where RAW does not.
        #expect(policy.advice(freeBytes: 20_000_000, format: .jpeg).level == .critical)
        #expect(StorageAdvice.fullSuggestion(format: .jpeg) == "free space on the card")
    }

    @Test func theWarningLeavesWhenSpaceComesBack() {
        let policy = StoragePolicy(sensorPixels: Self.twelveMegapixels)
        #expect(policy.advice(freeBytes: 300_000_000, format: .raw).level == .low)
        #expect(policy.advice(freeBytes: 600_000_000, format: .raw).text == nil)
    }

    @Test func theEstimateFollowsTheRealFiles() {
        var policy = StoragePolicy(sensorPixels: 1280 * 720)
        #expect(policy.rawBytes == 1280 * 720 * 2 + 200_000, "before any file: from the sensor's size")
        policy.recordSaved(rawBytes: 1_000_000, jpegBytes: nil)
        #expect(policy.rawBytes == 1_000_000, "the first file replaces the guess")
        policy.recordSaved(rawBytes: 2_000_000, jpegBytes: 300_000)
        #expect(policy.rawBytes == 1_250_000, "then a quarter each")
        #expect(policy.jpegBytes == 300_000)
    }
}

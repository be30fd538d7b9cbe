import Foundation
import ReflexBench
import ReflexCore
import ReflexISP
import ReflexVision
import Testing

/// The detector on real people in athletic poses (`AthleteClip`): the footballer mid-kick
/// found by the analysis's sweep at the sizes a ski camera sees.
@Suite("Athletes found")
struct AthleteDetectionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The clip's picture averaged down by `factor` each way, 3 bytes a pixel.
    static func rgb(_ xrgb: [UInt32], factor: Int) -> (rgb: [UInt8], width: Int, height: Int) {
        let width = AthleteClip.width / factor, height = AthleteClip.height / factor
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height { for x in 0..<width { for channel in 0..<3 {
            var sum = 0
            for dy in 0..<factor { for dx in 0..<factor {
                sum += Int(xrgb[(y * factor + dy) * AthleteClip.width + x * factor + dx] >> (16 - 8 * channel) & 0xFF)
            } }
            rgb[(y * width + x) * 3 + channel] = UInt8(sum / (factor * factor))
        } } }
        return (rgb, width, height)
    }

    /// Every sweep square of the picture through the detector, merged as the analysis does.
    static func sweep(_ picture: (rgb: [UInt8], width: Int, height: Int), detector: PersonDetector) throws -> [PersonDetection] {
        var found: [RegionDetection] = []
        for region in DetectionTiles.sweep(aspect: Double(picture.width) / Double(picture.height)) {
            let x = Int(region.x * Double(picture.width)), y = Int(region.y * Double(picture.height))
            let w = min(Int(region.width * Double(picture.width)), picture.width - x)
            let h = min(Int(region.height * Double(picture.height)), picture.height - y)
            let boxes = try picture.rgb.withUnsafeBufferPointer { pixels in
                try detector.detect(rgb: pixels.baseAddress! + (y * picture.width + x) * 3, width: w, height: h,
                                    stride: picture.width * 3, threshold: 0.5)
            }
            found += boxes.map { RegionDetection(detection: PersonDetection(box: $0.box.placed(in: region), confidence: $0.confidence),
                                                 region: region) }
        }
        return DetectionMerge.merge(found)
    }

    /// A wide pose's box is wide where a detector reads the body: found is its centre inside
    /// the true box and a third of the true box's area shared.
    static func finds(_ found: [PersonDetection], _ truth: FractionalBox) -> Bool {
        found.contains { truth.contains(x: $0.box.centreX, y: $0.box.centreY) && $0.box.overlap(truth) >= 0.3 }
    }

    /// At the analysis's own resolution (the frame at 640x360), the sweep finds the footballer
    /// mid-kick from 16 % of the frame's height. (The shipped SSDLite, trained on pedestrians,
    /// misses him below about 13 % even in quarter-height squares, where he is 120 pixels high
    /// in its input: the 6 % needs a stronger model, which a board can name:
    /// Models/README.md.)
    @Test func theSweepFindsAFootballerMidKick() throws {
        let scene = try AthleteClip.Scene(testData: Self.repository + "/Tests/Data")
        let detector = try PersonDetector(modelPath: Self.repository + "/Models/" + PersonDetector.modelFileName)
        for height in [0.16, 0.25, 0.3] {
            let (xrgb, pixels) = scene.picture(athleteAt: 0.4, bottom: 0.75, height: height)
            let truth = FractionalBox(x: Double(pixels.x) / Double(AthleteClip.width), y: Double(pixels.y) / Double(AthleteClip.height),
                                 width: Double(pixels.width) / Double(AthleteClip.width),
                                 height: Double(pixels.height) / Double(AthleteClip.height))
            let swept = try Self.sweep(Self.rgb(xrgb, factor: 2), detector: detector)
            #expect(Self.finds(swept, truth), "at \(height) of the height: \(swept) against \(truth)")
        }
    }
}

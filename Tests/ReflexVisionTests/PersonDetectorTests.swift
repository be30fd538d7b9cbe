import Foundation
import ReflexCore
import ReflexISP
import ReflexTestSupport
import ReflexVision
import Testing

/// The person detector through OpenCV on a real frame with persons labelled by hand
/// (Tests/Data/people), and its errors.
@Suite("Person detector")
struct PersonDetectorTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// `Models/fetch` puts it there (image-build/setup-host runs it).
    static let model = repository + "/Models/" + PersonDetector.modelFileName

    struct Labelled {
        var box: FractionalBox
        var clear: Bool
    }

    /// A frame and its labels: `name`.jpg and `name`.csv in Tests/Data/people.
    static func frame(_ name: String) throws -> (picture: DecodedJPEG, people: [Labelled]) {
        let folder = repository + "/Tests/Data/people/"
        let picture = try DecodedJPEG([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + name + ".jpg"))))
        let text = try String(contentsOfFile: folder + name + ".csv", encoding: .utf8)
        let people = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("x,") }.map { line in
            let fields = line.split(separator: ",").map { Double($0)! }
            return Labelled(box: FractionalBox(x: fields[0] / Double(picture.width), y: fields[1] / Double(picture.height),
                                          width: fields[2] / Double(picture.width), height: fields[3] / Double(picture.height)),
                            clear: fields[4] == 1)
        }
        return (picture, people)
    }

    struct MissingModel: Error, CustomStringConvertible {
        let description: String
    }

    static func detector() throws -> PersonDetector {
        guard FileManager.default.fileExists(atPath: model) else {
            throw MissingModel(description: "no model at \(model): run Models/fetch (image-build/setup-host does)")
        }
        return try PersonDetector(modelPath: model)
    }

    @Test func everyClearlyVisiblePersonIsFoundAndNothingElse() throws {
        let detector = try Self.detector()
        let (picture, people) = try Self.frame("vtest-0100")
        let found = try picture.rgb.withUnsafeBufferPointer { pixels in
            try detector.detect(rgb: pixels.baseAddress!, width: picture.width, height: picture.height, stride: picture.width * 3)
        }
        for person in people where person.clear {
            let best = found.map { $0.box.overlap(person.box) }.max() ?? 0
            #expect(best >= 0.5, "the person at \(person.box) is found (best overlap \(best))")
        }
        for detection in found {
            let best = people.map { $0.box.overlap(detection.box) }.max() ?? 0
            #expect(best >= 0.3, "\(detection) is a labelled person (best overlap \(best))")
        }
        #expect(detector.forwardMilliseconds > 0, "OpenCV's own time is reported")
    }

    @Test func aMissingModelIsAClearError() {
        #expect {
            _ = try PersonDetector(modelPath: "/nonexistent/model.pb")
        } throws: { error in
            "\(error)".contains("no person detector model at /nonexistent/model.pb")
        }
    }

    @Test func aFileThatIsNoModelIsAClearError() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/broken.pb"
        try Data("not a graph".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try PersonDetector(modelPath: path)
        } throws: { error in
            "\(error)".contains(path)
        }
    }

    @Test func theModelIsFoundInstalledOrInTheClone() {
        #expect(PersonDetector.locateModel(environment: "/x/y.pb", executablePath: "/usr/bin/reflex") == "/x/y.pb")
        let built = Self.repository + "/.build/release/reflex"
        #expect(PersonDetector.locateModel(environment: nil, executablePath: built) == Self.model)
        #expect(PersonDetector.locateModel(environment: nil, executablePath: "/nonexistent/bin/reflex") == nil)
    }
}

import ReflexCore
import ReflexHardware
import Testing

/// What the camera writes to FunctionFS's ep0 (issue 55, the gadget): the v2 descriptors a
/// kernel takes, and the interface a host's libgphoto2 and libmtp recognise as a camera.
@Suite struct FunctionFSDescriptorsTests {
    /// The blob's descriptors, each as its bytes, by speed.
    static func descriptorsBySpeed() throws -> [[[UInt8]]] {
        let blob = FunctionFSDescriptors.descriptors()
        var reader = PTPDataReader(blob)
        #expect(try reader.uint32() == 3, "FUNCTIONFS_DESCRIPTORS_MAGIC_V2")
        #expect(try Int(reader.uint32()) == blob.count, "its own length")
        #expect(try reader.uint32() == 7, "full, high and SuperSpeed")
        let counts = try [reader.uint32(), reader.uint32(), reader.uint32()].map(Int.init)
        var offset = 24
        return counts.map { count in
            (0..<count).map { _ in
                let length = Int(blob[offset])
                defer { offset += length }
                return Array(blob[offset..<(offset + length)])
            }
        }
    }

    @Test func oneStillImageInterfaceWithItsThreeEndpointsAtEachSpeed() throws {
        let speeds = try Self.descriptorsBySpeed()
        #expect(speeds.map(\.count) == [4, 4, 7])
        for descriptors in speeds {
            #expect(Array(descriptors[0][4...7]) == [3, 6, 1, 1], "three endpoints; class 6/1/1, PIMA 15740")
            let endpoints = descriptors.filter { $0[1] == 5 }
            #expect(endpoints.map { $0[2] } == [0x81, 0x02, 0x83], "bulk in, bulk out, interrupt in")
            #expect(endpoints.map { $0[3] } == [2, 2, 3])
        }
        let bulkPackets = speeds.map { Int($0[1][4]) | Int($0[1][5]) << 8 }
        #expect(bulkPackets == [64, 512, 1024], "full, high, SuperSpeed")
        #expect(speeds[2].filter { $0[1] == 0x30 }.count == 3, "each SuperSpeed endpoint with its companion")
    }

    @Test func theInterfacesNameInUSEnglish() throws {
        let blob = FunctionFSDescriptors.strings()
        var reader = PTPDataReader(blob)
        #expect(try [reader.uint32(), reader.uint32(), reader.uint32(), reader.uint32()] == [2, UInt32(blob.count), 1, 1])
        #expect(try reader.uint16() == 0x0409)
        #expect(Array(blob[18...]) == Array("Reflex MTP".utf8) + [0], "with MTP in it, for libmtp")
    }
}

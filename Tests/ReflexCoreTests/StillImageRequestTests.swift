import ReflexCore
import Testing

/// The still-image class's requests on the control endpoint (issue 55, bad hosts): the three
/// a host uses, told apart from anything else, which is stalled.
@Suite struct StillImageRequestTests {
    @Test func cancelResetAndStatusAreReadAndTheRestStalled() {
        #expect(StillImageRequest(setup: [0x21, 0x64, 0, 0, 0, 0, 6, 0]) == .cancel)
        #expect(StillImageRequest(setup: [0x21, 0x66, 0, 0, 0, 0, 0, 0]) == .deviceReset)
        #expect(StillImageRequest(setup: [0xA1, 0x67, 0, 0, 0, 0, 0x14, 0]) == .getDeviceStatus(length: 20))
        #expect(StillImageRequest(setup: [0xA1, 0x65, 0, 0, 0, 0, 0x40, 0]) == .unsupported, "extended event data")
        #expect(StillImageRequest(setup: [0x21, 0x64, 0, 0, 0, 0, 2, 0]) == .unsupported, "a cancel without its six bytes")
        #expect(StillImageRequest(setup: [0x21, 0x64]) == .unsupported)
        #expect(StillImageRequest.deviceStatus(busy: false) == [4, 0, 0x01, 0x20])
        #expect(StillImageRequest.deviceStatus(busy: true) == [4, 0, 0x19, 0x20])
    }
}

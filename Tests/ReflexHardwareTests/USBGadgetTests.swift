import Foundation
import ReflexCore
import ReflexHardware
import ReflexTestSupport
import Testing

/// The camera's USB gadget (issue 55): who it says it is, and what configfs is given to make
/// it (a plain folder stands in for configfs here; the QEMU scenario usb-files makes the real
/// one on dummy_hcd).
@Suite struct USBGadgetTests {
    @Test func theCameraNamesItselfByItsBoardAndMachine() {
        let identity = USBGadgetIdentity(board: "qemu-x86_64", version: "0.1.0", machineID: "0123456789abcdef0123456789abcdef\n")
        #expect(identity.manufacturer == "Reflex" && identity.product == "Reflex qemu-x86_64")
        #expect(identity.serialNumber == "0123456789ABCDEF", "the machine id's first 16 digits, as a camera's serial reads")
        #expect(identity.deviceVersion == 0x0010, "0.1.0 as bcdDevice")
        #expect(USBGadgetIdentity(board: "", version: "2.3.4", machineID: "").serialNumber == "0")
        #expect(USBGadgetIdentity(board: "", version: "2.3.4", machineID: "").deviceVersion == 0x0234)
    }

    /// A maker's usb.conf: its own IDs and names reach configfs; the serial stays the
    /// machine's; a half-given pair or a bad value is refused with the line's key.
    @Test func aMakersUsbConfGivesItsOwnIDsAndNames() throws {
        let board = try BoardUSB.parse("""
            # Example Co's camera
            vendor-id = 0x2E8A
            product-id = 101
            manufacturer = Example Co
            product = Example Cam One
            """).get()
        #expect(board.vendorID == 0x2E8A && board.productID == 0x0101)
        let identity = USBGadgetIdentity(board: "rpi5-imx477", version: "0.1.0", machineID: String(repeating: "b2", count: 16))
            .adopting(board)
        let configfs = TemporaryFolder()
        try USBGadget(gadgets: configfs.path).create(identity)
        #expect(configfs.read("reflex/idVendor") == "0x2e8a\n" && configfs.read("reflex/idProduct") == "0x101\n")
        #expect(configfs.read("reflex/strings/0x409/manufacturer") == "Example Co\n")
        #expect(configfs.read("reflex/strings/0x409/product") == "Example Cam One\n")
        #expect(configfs.read("reflex/strings/0x409/serialnumber") == "B2B2B2B2B2B2B2B2\n", "each camera its own serial")
        // Names alone keep the Linux Foundation's IDs.
        let named = USBGadgetIdentity(board: "x", version: "0.1.0", machineID: "").adopting(try BoardUSB.parse("product = Cam\n").get())
        #expect(named.vendorID == 0x1D6B && named.product == "Cam")
        #expect(BoardUSB.parse("vendor-id = 0x2e8a\n") == .failure(.missingKey("product-id")))
        #expect(BoardUSB.parse("product-id = 0x0101\n") == .failure(.missingKey("vendor-id")))
        for bad in ["vendor-id = 0x12345", "vendor-id = 0", "product-id = cafe!", "product = " + String(repeating: "x", count: 127),
                    "colour = red"] {
            guard case .failure = BoardUSB.parse(bad + "\n") else { Issue.record("\(bad) was taken"); continue }
        }
    }

    @Test func theGadgetHoldsOneConfigurationWithTheFunctionFSFunction() throws {
        let configfs = TemporaryFolder()
        let gadget = USBGadget(gadgets: configfs.path)
        try gadget.create(USBGadgetIdentity(board: "rpi5-imx477", version: "0.1.0", machineID: String(repeating: "a1", count: 16)))
        let folder = "reflex/"
        #expect(configfs.read(folder + "idVendor") == "0x1d6b\n" && configfs.read(folder + "idProduct") == "0x104\n")
        #expect(configfs.read(folder + "strings/0x409/product") == "Reflex rpi5-imx477\n")
        #expect(configfs.read(folder + "strings/0x409/serialnumber") == "A1A1A1A1A1A1A1A1\n")
        #expect(configfs.read(folder + "configs/c.1/MaxPower") == "500\n")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: configfs.file(folder + "configs/c.1/ffs.reflex"))
        #expect(link == configfs.file(folder + "functions/ffs.reflex"), "the function in the configuration")
        try gadget.bind(to: "dummy_udc.0")
        #expect(configfs.read(folder + "UDC") == "dummy_udc.0\n")
        gadget.unbind()
        #expect(configfs.read(folder + "UDC") == "\n")
    }

    @Test func ep0sEventsAreReadWhole() {
        func event(_ type: UInt8, setup: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]) -> [UInt8] { setup + [type, 0, 0, 0] }
        let status: [UInt8] = [0xA1, 0x67, 0, 0, 0, 0, 4, 0]
        let bytes = event(0) + event(2) + event(4, setup: status) + event(9) + event(3) + [1, 2, 3]
        #expect(FunctionFSEvent.events(in: bytes) == [.bind, .enable, .setup(status), .disable],
                "an unknown type skipped, a partial event left")
        #expect(FunctionFSEvent.events(in: []) == [])
    }
}

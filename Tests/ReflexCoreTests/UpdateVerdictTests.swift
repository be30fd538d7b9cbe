import ReflexCore
import Testing

/// The camera's decision on an update file: pure rules on what RAUC read of it.
@Suite("Update verdicts")
struct UpdateVerdictTests {
    let running = FirmwareVersion("0.2.0")!
    let ours = "reflex-qemu-x86_64"

    func decide(_ version: String, compatible: String? = nil, forced: Bool = false) -> UpdateVerdict {
        UpdateVerdict.decide(.read(UpdateBundle(compatible: compatible ?? ours, version: version)),
                             compatible: ours, running: running, forced: forced)
    }

    @Test func versionsAreOrderedByTheirNumbersAlone() throws {
        let build = try #require(FirmwareVersion("0.10.2+abc123"))
        #expect(build.major == 0 && build.minor == 10 && build.patch == 2 && build.build == "abc123")
        #expect(build.description == "0.10.2+abc123" && build.release == "0.10.2")
        #expect(FirmwareVersion("0.9.9")!.isOlder(than: build))
        #expect(!FirmwareVersion("0.10.2")!.isOlder(than: build) && !build.isOlder(than: FirmwareVersion("0.10.2")!))
        #expect(FirmwareVersion("0.10.2+def")!.isSameRelease(as: build))
        for bad in ["", "1", "1.2", "1.2.3.4", "1.2.x", "1.2.3+", "-1.2.3", "1..3", "v1.2.3", "1.2.3 "] {
            #expect(FirmwareVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func aNewerVersionIsOfferedWithTheQuestion() {
        let verdict = decide("0.3.0")
        #expect(verdict == .offer(running: running, bundle: FirmwareVersion("0.3.0")!))
        #expect(verdict.question == "Update Reflex 0.2.0 → 0.3.0? The camera restarts.")
    }

    /// Development cameras take the next commit's bundle of the same release.
    @Test func anotherBuildOfTheRunningReleaseIsOfferedByItsBuild() {
        let verdict = decide("0.2.0+1a2b3c4")
        #expect(verdict == .offer(running: running, bundle: FirmwareVersion("0.2.0+1a2b3c4")!))
        #expect(verdict.question == "Update Reflex 0.2.0 → 0.2.0+1a2b3c4? The camera restarts.")
    }

    @Test func anOlderOrTheSameVersionIsRefusedUnlessForced() {
        #expect(decide("0.1.9") == .refused(.older(bundle: FirmwareVersion("0.1.9")!, running: running)))
        #expect(decide("0.1.9").question == "Not installed: Reflex 0.1.9 is older than the running 0.2.0.")
        #expect(decide("0.2.0") == .refused(.alreadyRunning(running)))
        #expect(decide("0.1.9", forced: true) == .offer(running: running, bundle: FirmwareVersion("0.1.9")!))
        #expect(decide("0.2.0", forced: true) == .offer(running: running, bundle: running))
    }

    @Test func anotherCamerasOrAnotherKeysBundleIsRefusedEvenForced() {
        let other = decide("0.3.0", compatible: "reflex-rpi5-imx477", forced: true)
        #expect(other == .refused(.forAnotherCamera(bundle: "reflex-rpi5-imx477", camera: ours)))
        #expect(other.question == "Not installed: the update is for another camera (reflex-rpi5-imx477).")
        let forged = UpdateVerdict.decide(.signatureRejected("signature verification failed: Verify error: self-signed certificate"),
                                          compatible: ours, running: running, forced: true)
        #expect(forged.question == "Not installed: the update is not signed by this camera's maker.")
        if case .refused(let refusal) = forged { #expect(!refusal.isOverridable) } else { Issue.record("offered: \(forged)") }
        #expect(decide("0.3", forced: true) == .refused(.unknownVersion("0.3")))
    }

    /// RAUC's own output: the manifest on a JSON line (which may run into a line of standard
    /// error, standard output having no newline at its end), or its reason.
    @Test func raucInfosOutputIsReadAsItPrintsIt() {
        let json = #"{"compatible":"reflex-qemu-x86_64","version":"0.3.0","description":"Reflex 0.3.0","build":null,"images":[]}"#
        let read = BundleReading.fromRAUCInfo(exitStatus: 0, output: "rauc-Message: 21:40:06.578: Verifying bundle signature... \n"
                                              + json + "rauc-Message: 21:40:06.579: Verified inline signature by 'O = Reflex'\n")
        #expect(read == .read(UpdateBundle(compatible: "reflex-qemu-x86_64", version: "0.3.0", description: "Reflex 0.3.0")))
        let forged = BundleReading.fromRAUCInfo(exitStatus: 1, output: """
            rauc-Message: 21:40:09.951: Verifying bundle signature...
            signature verification failed: Verify error: self-signed certificate
            """)
        #expect(forged == .signatureRejected("signature verification failed: Verify error: self-signed certificate"))
        let cut = BundleReading.fromRAUCInfo(exitStatus: 1, output: "Invalid bundle format: Signature size (74) exceeds bundle size\n")
        #expect(cut == .unreadable("Invalid bundle format: Signature size (74) exceeds bundle size"))
        #expect(BundleReading.fromRAUCInfo(exitStatus: nil, output: "") == .unreadable("rauc info did not finish"))
        #expect(BundleReading.fromRAUCInfo(exitStatus: 0, output: "{not json}\n") == .unreadable("rauc info said nothing"))
    }

    @Test func systemConfReadsTheCompatibleAndTheKeyringBesideIt() {
        let text = """
            # the camera's slots
            [system]
            compatible = reflex-qemu-x86_64
            bootloader=grub

            [keyring]
            path=keyring.pem

            [slot.rootfs.0]
            compatible=not-this-one
            """
        #expect(RAUCSystemConfig(text, path: "/etc/rauc/system.conf")
                == RAUCSystemConfig(compatible: "reflex-qemu-x86_64", keyringPath: "/etc/rauc/keyring.pem"))
        #expect(RAUCSystemConfig("[keyring]\npath=/k.pem\n[system]\ncompatible=x\n", path: "s.conf")
                == RAUCSystemConfig(compatible: "x", keyringPath: "/k.pem"))
        #expect(RAUCSystemConfig("[slot.rootfs.0]\ncompatible=x\n", path: "/s.conf") == nil)
    }
}

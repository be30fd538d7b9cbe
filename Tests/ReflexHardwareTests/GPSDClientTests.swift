import Foundation
import ReflexCore
import ReflexSystem
import Synchronization
import ReflexTestSupport
import Testing
@testable import ReflexHardware

/// The gpsd client against a real gpsd: gpsfake replaying gpsd's own receiver logs.
@Suite("gpsd client")
struct GPSDClientTests {
    /// A client for gpsd on `port`, geotag on, collecting what it says.
    final class Watched: @unchecked Sendable {
        /// The client's log lines.
        final class Lines: Sendable {
            let lines = Mutex<[String]>([])
        }

        /// Each status the client posted, and whether it held a fix for a photo right then.
        final class Transitions: Sendable {
            let client = Mutex<GPSDClient?>(nil)
            let seen = Mutex<[(status: GPSStatus, hasFix: Bool)]>([])
        }

        let client: GPSDClient
        let lines = Lines()
        let transitions = Transitions()

        init(port: UInt16) {
            let lines = self.lines
            let transitions = self.transitions
            client = GPSDClient(address: GPSDAddress(host: "localhost", port: port),
                                post: { status in
                                    let hasFix = transitions.client.withLock { $0?.fix(at: monotonicSeconds()) != nil }
                                    transitions.seen.withLock { $0.append((status, hasFix)) }
                                },
                                log: { line in lines.lines.withLock { $0.append(line) } })
            transitions.client.withLock { $0 = client }
            _ = client.start()
            client.setEnabled(true)
        }

        deinit {
            client.stop()
            transitions.client.withLock { $0 = nil }
        }

        /// A fix, then searching with no fix to give a photo: seen in the posted statuses.
        var lostAfterAFix: Bool {
            transitions.seen.withLock { seen in
                guard let fixed = seen.firstIndex(where: { $0.status == .fix }) else { return false }
                return seen[fixed...].contains { $0.status == .searching && !$0.hasFix }
            }
        }

        var fixNow: GPSFix? { client.fix(at: monotonicSeconds()) }

        /// Waits up to `seconds` for `condition`; true if it came.
        /// (gpsd is a real process: the bound, a minute, is only a safety net.)
        func wait(seconds: Double = 60, for condition: () -> Bool) -> Bool {
            let deadline = monotonicSeconds() + seconds
            while monotonicSeconds() < deadline {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }

        /// Every fix seen over `seconds`, sampled often.
        func fixes(over seconds: Double) -> [GPSFix] {
            var seen: [GPSFix] = []
            let deadline = monotonicSeconds() + seconds
            while monotonicSeconds() < deadline {
                if let fix = fixNow, seen.last != fix { seen.append(fix) }
                usleep(20_000)
            }
            return seen
        }

        var log: String { lines.lines.withLock { $0.joined(separator: "\n") } }
    }

    /// A fix is one of the log's own positions, to gpsd's nine decimals.
    static func isInLog(_ fix: GPSFix, _ positions: [(latitude: Double, longitude: Double)]) -> Bool {
        positions.contains { abs($0.latitude - fix.latitude) < 1e-7 && abs($0.longitude - fix.longitude) < 1e-7 }
    }

    @Test(.tags(.externalTool)) func aValidFixIsTheLogsPosition() throws {
        let gpsd = try GPSFake(log: "bu353s4.log", port: 29_471)
        defer { gpsd.stop() }
        let watched = Watched(port: gpsd.port)
        #expect(watched.wait { watched.client.status == .fix }, "\(watched.log)")
        let fix = try #require(watched.fixNow)
        #expect(Self.isInLog(fix, try GPSFake.positions(in: "bu353s4.log")), "\(fix)")
        // The log starts in 2D, before its receiver has the height, and not every report of
        // a 3D fix carries it (one made from an RMC sentence does not).
        // (The fix looked at is the one that met the wait: gpsd's next report may replace it
        // at any moment, sooner or later as the host is busy.)
        var threeD: GPSFix?
        #expect(watched.wait { threeD = watched.fixNow; return threeD?.altitude != nil && threeD?.horizontalError != nil },
                "\(watched.log)")
        #expect(threeD?.mode == .threeD && threeD?.time != nil, "\(String(describing: threeD))")
        #expect(watched.wait { watched.fixNow?.dilution != nil }, "the satellites' HDOP joins the fix")
    }

    @Test(.tags(.externalTool)) func noFixAtAllGivesNone() throws {
        let gpsd = try GPSFake(log: "ublox-lea-5q.log", port: 29_472)
        defer { gpsd.stop() }
        let watched = Watched(port: gpsd.port)
        #expect(watched.wait { watched.client.status == .searching }, "\(watched.log)")
        #expect(watched.fixes(over: 5).isEmpty)
        // (gpsfake hands the receiver over again each time round the log: the status may say
        // no receiver for a moment, but never a fix.)
        #expect(!watched.transitions.seen.withLock { $0.contains { $0.status == .fix || $0.hasFix } })
    }

    @Test(.tags(.externalTool)) func aLostFixIsNoneOnceItHasGone() throws {
        let gpsd = try GPSFake(log: "bu353-glonass.log", port: 29_473)
        defer { gpsd.stop() }
        let watched = Watched(port: gpsd.port)
        #expect(watched.wait { watched.client.status == .fix }, "\(watched.log)")
        // (Read from the statuses as they were posted: the log comes round again, and a busy
        // machine may sample past the few seconds without a fix.)
        #expect(watched.wait { watched.lostAfterAFix }, "\(watched.log)")
    }

    @Test(.tags(.externalTool), arguments: ["triton400.log", "hp58534a.log", "april6_2019.log"])
    func malformedLogsGiveNoBogusCoordinates(log: String) throws {
        let gpsd = try GPSFake(log: log, port: 29_474 + UInt16(["triton400.log", "hp58534a.log"].firstIndex(of: log) ?? 2))
        defer { gpsd.stop() }
        let watched = Watched(port: gpsd.port)
        #expect(watched.wait { watched.client.status != .connecting && watched.client.status != .off })
        let positions = try GPSFake.positions(in: log)
        for fix in watched.fixes(over: 6) {
            #expect(Self.isInLog(fix, positions), "\(log): \(fix) is not in the log")
            #expect(fix.isPlausible)
        }
    }

    @Test(.tags(.externalTool)) func gpsdStoppedMidRunShowsAndTheClientComesBack() throws {
        var gpsd = try GPSFake(log: "neo-m8n.log", port: 29_477)
        let watched = Watched(port: 29_477)
        #expect(watched.wait { watched.client.status == .fix }, "\(watched.log)")
        gpsd.stop()
        #expect(watched.wait(seconds: 5) { watched.client.status == .serviceNotRunning }, "\(watched.log)")
        #expect(watched.fixNow == nil, "no fix once gpsd has gone")
        gpsd = try GPSFake(log: "neo-m8n.log", port: 29_477)
        defer { gpsd.stop() }
        // Reconnected within the longest backoff (8 s) and a few seconds of the log.
        #expect(watched.wait(seconds: 25) { watched.client.status == .fix }, "\(watched.log)")
        // Connected again (more than once if gpsfake's new gpsd dropped a first connection
        // while it started, as it may on a loaded machine).
        #expect(watched.log.components(separatedBy: "connected to gpsd").count - 1 >= 2, "\(watched.log)")
    }

    @Test(.tags(.externalTool)) func withoutGpsdItSaysTheServiceIsNotRunning() {
        let watched = Watched(port: 29_479)  // nothing listens there
        #expect(watched.wait(seconds: 5) { watched.client.status == .serviceNotRunning }, "\(watched.log)")
        #expect(watched.log.contains("no gpsd at localhost:29479"), "\(watched.log)")
    }

    @Test(.tags(.externalTool)) func aGpsdWithoutAReceiverSaysSo() throws {
        let gpsd = try GPSFake(log: nil, port: 29_480)
        defer { gpsd.stop() }
        let watched = Watched(port: gpsd.port)
        #expect(watched.wait { watched.client.status == .noReceiver }, "\(watched.log)")
    }

    @Test(.tags(.externalTool)) func turnedOffItLetsGoOfGpsd() throws {
        let gpsd = try GPSFake(log: "bu353s4.log", port: 29_481)
        defer { gpsd.stop() }
        let watched = Watched(port: gpsd.port)
        #expect(watched.wait { watched.client.status == .fix })
        watched.client.setEnabled(false)
        #expect(watched.wait(seconds: 3) { watched.client.status == .off }, "\(watched.log)")
        #expect(watched.fixNow == nil, "off: no fix is kept for a photo")
    }
}

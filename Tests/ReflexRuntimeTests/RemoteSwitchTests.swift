import ReflexCore
@testable import ReflexRuntime
import ReflexUI
import Testing

/// The quick menu's Remote as the loop carries it out (issue 54): its switch follows the
/// setting and Forget phones, lock-free; the remote's report reaches the screen, a camera
/// without a way says why on its Remote line, and a pairing lock is said once.
@Suite struct RemoteSwitchTests {
    static let metered = MeteredValues(iso: ISOSpeed(400), exposureSeconds: 1.0 / 125, focus: .infinity, kelvin: 5200)

    static func tap(_ router: InputRouter, _ model: inout ScreenModel, x: Int, y: Int, at time: Double) -> InputRouter.Batch {
        var batch = InputRouter.Batch(metered: metered)
        router.apply(.touchDown(slot: 0, x: Double(x), y: Double(y)), at: time, now: time, to: &model, batch: &batch)
        router.apply(.touchUp(slot: 0), at: time + 0.05, now: time + 0.05, to: &model, batch: &batch)
        return batch
    }

    static func value(of item: QuickMenuItem, _ model: ScreenModel) throws -> (x: Int, y: Int) {
        let index = try #require(QuickMenuItem.lines(for: model.state.settings).firstIndex(of: item))
        let row = ScreenModelTests.layout.menuRows[index]
        return (row.x + row.width - 10, row.y + row.height / 2)
    }

    @Test func theSwitchFollowsTheMenu() throws {
        let remote = RemoteSwitch(on: false)
        let router = InputRouter(mailbox: nil, settingsWriter: nil, gps: nil, haptics: nil, movies: nil, saveDecisions: nil,
                                 analysis: nil, reviewer: nil, remote: remote)
        var model = ScreenModelTests.model()
        let button = ScreenModelTests.layout.menuButton
        _ = Self.tap(router, &model, x: button.x + 10, y: button.y + 10, at: 1)
        var place = try Self.value(of: .remote, model)
        let on = Self.tap(router, &model, x: place.x, y: place.y, at: 2)
        #expect(on.settingsChanged)
        router.settle(on, model: &model, now: 2.1)
        #expect(remote.isOn && model.state.settings.remote)
        // The sheet is up: a tap takes it down; then Forget phones.
        _ = Self.tap(router, &model, x: 900, y: 400, at: 3)
        place = try Self.value(of: .forgetPhones, model)
        _ = Self.tap(router, &model, x: place.x, y: place.y, at: 4)
        #expect(remote.forgetCount == 1 && remote.isOn)
        place = try Self.value(of: .remote, model)
        let off = Self.tap(router, &model, x: place.x, y: place.y, at: 5)
        router.settle(off, model: &model, now: 5.1)
        #expect(!remote.isOn)
    }

    @Test func theReportReachesTheScreen() {
        var model = ScreenModelTests.model()
        var status = CameraStatus()
        status.remote = RemoteReport(state: .unavailable(InterfaceText.noRemoteNetwork))
        _ = model.take(status, sensorChanged: false, now: 1)
        #expect(model.controller.remoteUnavailable == InterfaceText.noRemoteNetwork)
        status.remote = RemoteReport(state: .serving)
        status.remote.pairingCode = "123456"
        _ = model.take(status, sensorChanged: false, now: 2)
        #expect(model.controller.remoteUnavailable == nil && model.state.remote.pairingCode == "123456")
        #expect(model.state.notice == nil)
        status.remote.lockedSeconds = 60
        _ = model.take(status, sensorChanged: false, now: 3)
        #expect(model.state.notice == InterfaceText.pairingLocked)
        model.showNotice("something else", at: 3.5)
        status.remote.lockedSeconds = 59
        _ = model.take(status, sensorChanged: false, now: 4)
        #expect(model.state.notice == "something else", "said once, not every second of the lock")
    }
}

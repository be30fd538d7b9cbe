import ReflexCore

/// The words and numbers on screen, apart from drawing so they can be tested.
public enum InterfaceText {
    /// "2.8", "11", "" when unknown.
    public static func fNumber(tenths: Int) -> String {
        guard tenths > 0 else { return "" }
        return tenths % 10 == 0 || tenths >= 100 ? "\((tenths + 5) / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// One HUD item: a short label and its value.
    public struct Item: Sendable, Equatable {
        public let label: String
        public let value: String
        /// The photographer fixed it (Pro); an automatic value is marked so.
        public let manual: Bool
    }

    /// The HUD's items, left to right: ISO, shutter, aperture, then exposure compensation
    /// (only when not zero, in Auto) and white balance.
    public static func hudItems(_ state: ViewState) -> [Item] {
        let pro = state.settings.mode == .pro
        // A manual value is shown as set, even before the sensor has caught up with it.
        let iso = pro ? state.settings.iso.manualValue : nil
        let shutter = pro ? state.settings.shutter.manualValue : nil
        var items = [
            Item(label: "ISO", value: "\(iso?.value ?? state.readout.iso)", manual: iso != nil),
            Item(label: "SHUTTER", value: "\(shutter ?? state.readout.shutter)", manual: shutter != nil),
        ]
        let f = fNumber(tenths: state.readout.fNumberTenths)
        if !f.isEmpty { items.append(Item(label: "APERTURE", value: "f/" + f, manual: false)) }
        if state.settings.exposureCompensation != .zero && !(pro && state.settings.iso.manualValue != nil
                                                              && state.settings.shutter.manualValue != nil) {
            items.append(Item(label: "EV", value: state.settings.exposureCompensation.description, manual: false))
        }
        if state.zoomTenths != 10 {
            items.append(Item(label: "ZOOM", value: "\(state.zoomTenths / 10).\(state.zoomTenths % 10)×", manual: false))
        }
        let wbManual = pro && state.settings.whiteBalance != .auto
        items.append(Item(label: "WB", value: wbManual ? "\(state.settings.whiteBalance.kelvin ?? state.readout.kelvin)K"
                                                        : "AUTO", manual: wbManual))
        return items
    }

    /// The value a dial face shows: its manual value, or what Auto is using.
    public static func dialValue(_ dial: Dial, _ state: ViewState) -> String {
        let s = state.settings
        switch dial {
        case .iso: return "\(s.iso.manualValue?.value ?? state.readout.iso)"
        case .shutter: return "\(s.shutter.manualValue ?? state.readout.shutter)"
        case .focus: return s.focus.manualValue?.distanceLabel ?? "AF"
        case .whiteBalance:
            if case .preset(let preset) = s.whiteBalance { return preset.name }
            return "\(s.whiteBalance.kelvin ?? state.readout.kelvin)K"
        }
    }

    public static func dialName(_ dial: Dial) -> String {
        switch dial {
        case .iso: "ISO"
        case .shutter: "SHUTTER"
        case .focus: "FOCUS"
        case .whiteBalance: "WHITE BALANCE"
        }
    }

    public static func isManual(_ dial: Dial, _ settings: CameraSettings) -> Bool {
        switch dial {
        case .iso: settings.iso.manualValue != nil
        case .shutter: settings.shutter.manualValue != nil
        case .focus: settings.focus.manualValue != nil
        case .whiteBalance: settings.whiteBalance != .auto
        }
    }

    public static func presetName(_ whiteBalance: WhiteBalance) -> String {
        switch whiteBalance {
        case .auto: "Auto"
        case .preset(let preset): preset.name
        case .kelvin(let k): "\(k)K"
        }
    }

    /// The indicators at the right of the HUD, left to right.
    /// One chip at the right of the HUD: its text, and whether it asks for attention.
    public struct Indicator: Sendable, Equatable {
        public let text: String
        public let attention: Bool
    }

    public static func indicators(_ state: ViewState) -> [Indicator] {
        var result: [Indicator] = []
        if state.processing { result.append(Indicator(text: "Processing…", attention: false)) }
        if state.savingCount > 0 { result.append(Indicator(text: "Saving \(state.savingCount)…", attention: false)) }
        switch state.storage {
        case .ready: break
        case .low(let advice): result.append(Indicator(text: advice.text ?? "", attention: true))
        case .missing: result.append(Indicator(text: "No card", attention: true))
        case .readOnly: result.append(Indicator(text: "Card read-only", attention: true))
        }
        if state.exposureLocked { result.append(Indicator(text: "AE-L", attention: true)) }
        if let run = state.interval {
            result.append(Indicator(text: intervalProgress(run), attention: true))
        } else if let drive = state.settings.drive.badge {
            result.append(Indicator(text: drive, attention: false))
        }
        if let notice = state.notice { result.append(Indicator(text: notice, attention: true)) }
        // (Enhanced RAW stands out: it underexposes and takes longer to save.)
        result.append(Indicator(text: state.settings.format.label, attention: state.settings.format.merges))
        return result
    }

    /// Title and explanation of each failure screen.
    public static func message(_ screen: CameraScreen) -> (title: String, detail: String)? {
        switch screen {
        case .live: nil
        case .noCamera: ("No camera found", "Connect the camera module. Reflex will find it by itself.")
        case .reconnecting: ("Camera disconnected — reconnecting", "Check the camera's cable. The picture comes back as soon as it does.")
        }
    }

    /// Why the format badge stays on JPEG.
    public static let rawUnavailable = "No RAW: this camera sends no raw frames"
    public static let burstTakesPlainRaw = "Burst: plain RAWs, not Enhanced RAW"
    public static let stopRecordingFirst = "Stop recording first"
    public static let selfTimerCancelled = "Self-timer cancelled"

    /// A timelapse being made, and made.
    public static func timelapseProgress(_ percent: Int) -> String { "Making timelapse… \(percent)%" }
    public static func timelapseSaved(name: String, frames: Int, seconds: Double) -> String {
        "Timelapse saved: \(name) – \(frames) frames, " + DurationText.text(Int(seconds.rounded(.up)))
    }
    public static let timelapseBusy = "No timelapse: four are waiting to be made"

    /// A bracket that could not take every frame as asked: what it kept.
    public static func bracketShort(frames: Int, taken: Int, notAsAsked: Int) -> String {
        if taken < frames { return "Bracket: \(taken) of \(frames) frames taken" }
        return "Bracket: \(notAsAsked) of \(frames) frames not exposed as asked"
    }

    /// An interval run's words: begun, ended at its count, stopped (by a press: no reason).
    public static func intervalStarted(_ run: IntervalSchedule) -> String {
        "Interval: every " + DurationText.text(Int(run.interval)) + (run.count.map { ", \($0) shots" } ?? ", until stopped")
    }

    public static func intervalDone(_ run: IntervalSchedule) -> String {
        "Interval done: \(shots(run.taken))" + (run.missed > 0 ? ", \(run.missed) missed" : "")
    }

    public static func intervalStopped(_ run: IntervalSchedule, because reason: String?) -> String {
        "Interval stopped" + (reason.map { " – " + $0 } ?? "") + ": \(shots(run.taken))"
    }

    /// The card cannot take the shots still to come (at the start, or as it fills).
    public static func intervalShortfall(fits: Int, of wanted: Int?) -> String {
        "Card holds only \(shots(fits))" + (wanted.map { " of \($0)" } ?? " (under an hour)")
    }

    private static func shots(_ count: Int) -> String { count == 1 ? "1 shot" : "\(count) shots" }

    /// The drive chip while an interval run goes on: shots taken (of how many) and the next
    /// one's time, "INT 12/100 · 4s".
    public static func intervalProgress(_ progress: IntervalProgress) -> String {
        "INT \(progress.taken)" + (progress.count.map { "/\($0)" } ?? "")
            + (progress.secondsToNext.map { " · " + DurationText.text($0) } ?? "")
    }
    public static let noRecording = "This camera cannot record movies"
    /// Review's words.
    public static let protectedRefusesDelete = "Protected – unprotect it to delete"
    public static let reviewEmptyCard = "No photos or movies on the card"
    public static let reviewReading = "Reading the card…"
    public static let cannotShowFile = "Cannot show this file"
    public static let reviewBack = "Back"
    public static let reviewInfo = "Info"
    public static let reviewIndex = "Index"
    public static let reviewProtect = "Protect"
    public static let reviewUnprotect = "Unprotect"
    public static let reviewDelete = "Delete"
    public static let reviewCancel = "Cancel"
    /// The zoom as a percentage of the file's pixels: "100 %", "37 %".
    public static func reviewZoom(_ scale: Double) -> String { "\(Int((scale * 100).rounded())) %" }
    /// Why an item does not zoom: a movie, or a RAW without its JPEG (its detail is not decoded yet).
    public static func reviewCannotZoom(_ info: ReviewInfo) -> String {
        // (A photo without a size: a raw review could not develop, shown by its small preview.)
        info.format == "MOVIE" ? "A movie does not zoom" : "Only this file's preview can be shown"
    }
    /// Review's exposure line from a file's EXIF: "ISO 400   1/125   f/2.8   +0.3 EV" (what
    /// the file does not say is left out; nil when it says nothing).
    public static func reviewExposure(iso: Int?, seconds: Double?, fNumber: Double?, bias: Double?) -> String? {
        var parts: [String] = []
        if let iso, iso > 0 { parts.append("ISO \(iso)") }
        if let seconds, seconds > 0 {
            // Short times as the fraction a dial shows; from a third of a second, in seconds.
            let tenths = Int((seconds * 10).rounded())
            parts.append(seconds < 0.3 ? "1/\(Int((1 / seconds).rounded()))"
                         : tenths % 10 == 0 ? "\(tenths / 10)s" : "\(tenths / 10).\(tenths % 10)s")
        }
        if let fNumber, fNumber > 0 { parts.append("f/" + Self.fNumber(tenths: Int((fNumber * 10).rounded()))) }
        if let bias, abs(bias) >= 0.05 {
            let tenths = Int((abs(bias) * 10).rounded())
            parts.append((bias > 0 ? "+" : "−") + "\(tenths / 10).\(tenths % 10) EV")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "   ")
    }

    /// EXIF's "2024:05:06 07:08:09" as "2024-05-06 07:08:09" (anything else as written).
    public static func reviewDate(exif: String) -> String {
        let characters = Array(exif)
        guard characters.count >= 10, characters[4] == ":", characters[7] == ":" else { return exif }
        var shown = characters
        (shown[4], shown[7]) = ("-", "-")
        return String(shown)
    }

    /// A movie's length: "0:42", "12:05", "1:02:03".
    public static func movieLength(seconds: Double) -> String {
        let whole = max(0, Int(seconds.rounded(.down)))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// The question before a delete: what goes (both files of a pair), and that it is final.
    public static func deleteQuestion(_ info: ReviewInfo) -> (title: String, detail: [String]) {
        let files = info.format.contains("+") ? "Both files (\(info.format)) leave" : "The \(info.format) file leaves"
        return ("Delete \(info.number)?", [files + " the card.", "This cannot be undone."])
    }

    /// A save problem's answers.
    public static let retry = "Retry"
    /// Auto-zoom lost its subject and widens to find it.
    public static let subjectLost = "Subject lost"
    /// Auto-zoom frames the person the photographer tapped.
    public static let followingChosen = "Following"
    /// Auto-zoom asked for on a camera without the person detector's model.
    public static let noAutoZoom = "No auto zoom: this camera has no person detector"
    /// The quick menu's Forget phones, done.
    /// The quick menu's Remote on a camera that cannot serve it.
    public static let noRemoteNetwork = "No remote: this camera has no network for it (its board names none)"
    public static let noRemotePage = "No remote: its page is not installed on this camera"
    // The remote's sheet.
    public static let remoteTitle = "Remote"
    public static let remoteClose = "Tap to close"
    public static let remoteStarting = "Starting the remote…"
    public static let remoteOff = "Remote is off"
    public static let remoteJoin = "Join the camera's Wi-Fi"
    public static let remoteOpen = "Open the remote"
    public static let remoteSameNetwork = "Put the phone on this camera's network"
    /// The pairing code in two groups of three, as it is read out.
    public static func remoteCode(_ code: String) -> String {
        code.count == 6 ? "Code \(code.prefix(3)) \(code.suffix(3))" : "Code \(code)"
    }
    public static func remoteLocked(seconds: Int) -> String { "Five wrong codes: pairing locked for \(seconds) s" }
    public static func remotePhones(_ count: Int) -> String {
        count == 0 ? "No phone watching" : count == 1 ? "1 phone watching" : "\(count) phones watching"
    }
    /// Five wrong pairing codes from phones.
    public static let pairingLocked = "Remote: five wrong codes, pairing locked for a minute"
    public static let phonesForgotten = "Every paired phone forgotten: each pairs again with the new code"
    /// Auto-zoom's menu lines on such a camera.
    public static let unavailable = "Not available"
    public static let discard = "Discard"

    /// The geotag consent screen (docs/camera.md, Geotagging): what turning geotag on means, in
    /// lines that fit the menu's panel, and its two answers.
    public static let consentTitle = "Geotag your photos?"
    public static let consentLines = [
        "Photos will carry where they were taken: the GPS",
        "latitude, longitude and altitude, and the time, in",
        "their EXIF. Anyone you share a photo with can read it.",
        "",
        "The camera asks its GPS receiver only while geotag",
        "is on. Turn it off in this menu at any time; off, no",
        "location is written in any file.",
    ]
    public static let consentAllow = "Allow"
    public static let consentDeny = "Don't allow"

    /// Why geotag went back off, and where to turn it on later.
    public static func geotagRefused(_ reason: String) -> String { "\(reason) · Geotag off (Menu › Geotag)" }

    public static let storageMissing = (title: "Storage card missing",
                                        detail: "Insert a card to take pictures. The viewfinder keeps working.")
}

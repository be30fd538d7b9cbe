import ReflexCore
import ReflexRuntime
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One soak under way: the schedule's actions done on the running camera as they fall due,
/// the card's state posted each second as `reflex run` posts it, the figures taken each
/// minute, and the card read back on a thread of its own at background priority.
final class SoakRun: @unchecked Sendable {
    private let camera: SoakCamera
    private let card: SoakCard
    private let log: SoakLog
    private var schedule = SoakSchedule()
    /// Photos asked for and not yet saved (their results are kept only for a while), those
    /// saved, and why the others failed.
    private var pendingTickets: [Int] = []
    private var asked = 0, saved = 0
    private var failures: [String] = []
    private var refusedPresses = 0
    private var minutes: [SoakMinute] = []
    /// The figures at each cycle's quiet moment (no photo being saved, no movie).
    private var quiet: [(minute: Double, figures: ProcessFigures)] = []
    private var missedAtLastMinute = 0
    private var allocationsAtLastMinute = 0
    private let checker = WorkerThread(name: "reflex-soak", priority: .background)
    private let checkRequested = Atomic<Bool>(false)
    /// A check under way (its pipe is a descriptor more).
    private let checking = Atomic<Bool>(false)
    private let filesChecked = Atomic<Int>(0)

    /// The second of each cycle its quiet figures are taken at: before the card is read, the
    /// last photo (a JPEG at 290 s) saved, the movie finished four minutes before. (Just
    /// after the movie its encoder's memory is still being given back.)
    static let quietSecond = 297.0

    init(camera: SoakCamera, card: SoakCard, log: SoakLog) {
        (self.camera, self.card, self.log) = (camera, card, log)
    }

    /// Runs the schedule for `seconds`, printing a row of figures each minute.
    func drive(seconds: Double) {
        startChecker()
        let start = monotonicSeconds()
        var nextSecond = start, nextMinute = start + 60, nextQuiet = start + SoakRun.quietSecond
        print(SoakMinute.heading)
        fflush(nil)
        while true {
            let now = monotonicSeconds()
            let elapsed = now - start
            for due in schedule.due(until: min(elapsed, seconds)) { perform(due.action) }
            if now >= nextSecond {
                camera.status.postStorage(freeBytes: card.freeBytes)
                collectResults()
                nextSecond += 1
            }
            // (Put off while the card is being read: its pipe is a descriptor more.)
            if now >= nextQuiet && !checking.load(ordering: .acquiring) {
                quiet.append((elapsed / 60, ProcessFigures.now()))
                nextQuiet += SoakSchedule.cycleSeconds
            }
            if now >= nextMinute {
                let row = sample(minute: minutes.count + 1)
                minutes.append(row)
                print(row.row)
                // (Seen as it comes even when the output goes to a file.)
                fflush(nil)
                nextMinute += 60
            }
            guard elapsed < seconds else { break }
            usleep(20_000)
        }
        // A movie or a card fill under way at the end is ended as the photographer would.
        if camera.movies.latestReport.recording { perform(.record) }
        if card.filled { perform(.emptyCard) }
        let settle = monotonicSeconds() + 60
        while (camera.movies.latestReport.recording || !pendingTickets.isEmpty) && monotonicSeconds() < settle {
            usleep(100_000)
            collectResults()
        }
    }

    /// The photos asked for whose results came: counted as saved or failed.
    private func collectResults() {
        pendingTickets.removeAll { ticket in
            guard let result = camera.photos.result(forTicket: ticket) else { return false }
            if let error = result.error { failures.append(error) } else if result.number != nil { saved += 1 }
            return true
        }
    }

    private func perform(_ action: SoakAction) {
        let now = monotonicSeconds()
        switch action {
        case .photo(let format):
            if let ticket = camera.sensor.mailbox.requestRemoteCapture(at: now, format: format) {
                pendingTickets.append(ticket)
                asked += 1
            } else {
                refusedPresses += 1
            }
        case .shutter(let pressed):
            post(.key(code: KeyCode.camera, pressed: pressed))
        case .record:
            post(.key(code: KeyCode.record, pressed: true))
            post(.key(code: KeyCode.record, pressed: false))
        case .dial(let wheel, let detents):
            post(.wheel(wheel: wheel, v120: detents * 120))
        case .zoom(let inwards, let pressed):
            post(.key(code: inwards ? KeyCode.zoomIn : KeyCode.zoomOut, pressed: pressed))
        case .lens(let role):
            let (x, y) = camera.lensButtonCentre(role)
            post(.touchDown(slot: 0, x: x, y: y))
            post(.touchUp(slot: 0))
        case .fillCard:
            log.write("soak: " + card.fill())
        case .emptyCard:
            log.write("soak: " + card.empty())
        case .checkCard:
            checkCard()
        }
    }

    private func post(_ event: InputEvent) {
        if !camera.loop.post(event, at: monotonicSeconds()) { log.write("soak: the loop's input queue was full") }
    }

    /// The card read back and cleared on the checker's thread (one thread for the whole
    /// soak, so that the threads counted do not change with it).
    private func checkCard() {
        checkRequested.store(true, ordering: .releasing)
        checker.wake()
    }

    private func startChecker() {
        checker.start { [self] in
            while !checker.isStopping {
                checker.waitForWake(milliseconds: 1000)
                guard checkRequested.exchange(false, ordering: .acquiringAndReleasing) else { continue }
                checking.store(true, ordering: .releasing)
                filesChecked.add(card.checkAndClear { CardFileReader.problem(with: $0) }, ordering: .relaxed)
                checking.store(false, ordering: .releasing)
            }
        }
    }

    /// After the camera stopped: the last files read back.
    func finishChecks() {
        checker.stop()
        filesChecked.add(card.checkAndClear { CardFileReader.problem(with: $0) }, ordering: .relaxed)
    }

    private func sample(minute: Int) -> SoakMinute {
        let statistics = camera.loop.currentStatistics()
        let summary = statistics?.ring.summary()
        let missed = statistics?.missedVblanks ?? missedAtLastMinute
        // (The ring counts allocations since the loop began.)
        let allocations = summary?.allocations ?? allocationsAtLastMinute
        defer { (missedAtLastMinute, allocationsAtLastMinute) = (missed, allocations) }
        return SoakMinute(minute: minute, p99: summary?.p99 ?? .nan, maximum: summary?.maximum ?? .nan,
                          missedVblanks: missed - missedAtLastMinute, loopAllocations: allocations - allocationsAtLastMinute, process: ProcessFigures.now(),
                          saveQueue: camera.photos.inbox.count, cardFreeMegabytes: (card.freeBytes ?? 0) / 1_000_000,
                          photosSaved: saved)
    }

    /// The curves' ends and the targets.
    func report(log: SoakLog) {
        guard let first = minutes.first, let last = minutes.last else { print("  (shorter than a minute: no figures)"); return }
        let afterFirst = minutes.dropFirst()
        let missed = afterFirst.reduce(0) { $0 + $1.missedVblanks }
        let allocations = afterFirst.reduce(0) { $0 + $1.loopAllocations }
        let worstP99 = minutes.map(\.p99).max() ?? 0
        print("  from minute 1 to minute \(last.minute): loop p99 \(Formatting.fixed(first.p99, 2)) → "
              + "\(Formatting.fixed(last.p99, 2)) ms (worst minute \(Formatting.fixed(worstP99, 2)) ms); "
              + "RSS \(megabytes(first.process.residentBytes)) → \(megabytes(last.process.residentBytes)) MB; "
              + "threads \(first.process.threads) → \(last.process.threads); "
              + "descriptors \(first.process.descriptors) → \(last.process.descriptors)")
        // The baseline is the first cycle's quiet moment: by then every path (each format, a
        // burst, a merge, a movie, the card filled) has run once.
        let baseline = quiet.first
        if let baseline, let end = quiet.last {
            print("  at each cycle's quiet moment (\(Int(SoakRun.quietSecond)) s in: no movie, no photo saving), "
                  + "\(quiet.count) cycles: RSS " + quiet.map { megabytes($0.figures.residentBytes) }.joined(separator: " ")
                  + " MB (of which the process's own: " + quiet.map { megabytes($0.figures.anonymousBytes) }.joined(separator: " ")
                  + " MB); malloc's in use: " + quiet.map { megabytes($0.figures.heapInUseBytes) }.joined(separator: " ")
                  + " MB in its heaps, " + quiet.map { megabytes($0.figures.heapMappedBlockBytes) }.joined(separator: " ")
                  + " MB in blocks mapped alone; threads " + quiet.map { String($0.figures.threads) }.joined(separator: " ")
                  + "; descriptors " + quiet.map { String($0.figures.descriptors) }.joined(separator: " "))
            print("  from minute \(Formatting.fixed(baseline.minute, 1)) (every path run once) to minute "
                  + "\(Formatting.fixed(end.minute, 1)): RSS \(megabytes(baseline.figures.residentBytes)) → "
                  + "\(megabytes(end.figures.residentBytes)) MB, threads \(baseline.figures.threads) → \(end.figures.threads), "
                  + "descriptors \(baseline.figures.descriptors) → \(end.figures.descriptors)")
        }
        print("  photos asked for: \(asked) (\(refusedPresses) presses refused), \(saved) saved, "
              + "\(failures.count) failed, \(pendingTickets.count) without an answer"
              + (failures.first.map { " (first: \($0))" } ?? ""))
        let checked = card.checked.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("  files read back and cleared: \(filesChecked.load(ordering: .relaxed)) (\(checked)); "
              + "refused by a reader: \(card.refused.count)")
        card.refused.prefix(10).forEach { print("    " + $0) }
        let trouble = log.trouble
        print("  log lines reporting a failure: \(trouble.count)")
        trouble.first.forEach { print("    " + $0) }
        let start = baseline?.figures ?? ProcessFigures.now(), end = quiet.last?.figures ?? start
        let growth = end.residentBytes - start.residentBytes
        // (What malloc holds, beside: resident pages come and go with the heaps' free pages;
        // a leak shows here.)
        let held = (end.heapInUseBytes + end.heapMappedBlockBytes) - (start.heapInUseBytes + start.heapMappedBlockBytes)
        let threadsGrew = end.threads > start.threads, descriptorsGrew = end.descriptors > start.descriptors
        print("  targets: 0 missed vblanks after the first minute (\(missed)), 0 allocations in the loop's frames "
              + "after the first minute (\(allocations)), memory growth ≤ 1 MB "
              + "(resident \(megabytes(growth)) MB; held by malloc \(megabytes(held)) MB), no growth of threads (\(threadsGrew ? "grew" : "none")) or descriptors "
              + "(\(descriptorsGrew ? "grew" : "none")), every file readable (\(card.refused.isEmpty ? "yes" : "no"))")
    }

    private func megabytes(_ bytes: Int) -> String { Formatting.fixed(Double(bytes) / 1_048_576, 1) }
}

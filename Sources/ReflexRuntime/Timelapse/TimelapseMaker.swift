import ReflexCore
import ReflexFormats
import ReflexStorage
import ReflexSystem

/// Makes an interval run's timelapse once the run has ended, on a low-priority thread of its
/// own (the viewfinder and the photo thread go first): the run's JPEGs, in the order saved,
/// one a frame through `TimelapseEncoder` into an MP4 on the card, numbered as movies are and
/// written as they are (under a hidden name, synced at each fragment, shown when whole:
/// `MovieFile`), so a power cut or a pulled card never leaves half a movie visible. Its
/// progress and outcome go to the status board; the screen says them.
public final class TimelapseMaker: @unchecked Sendable {
    /// A run's timelapse: its number, how many photos it took, the movie's frame rate.
    public struct Job: Sendable, Equatable {
        public let run: Int
        public let photos: Int
        public let framesPerSecond: Int

        public init(run: Int, photos: Int, framesPerSecond: Int) {
            (self.run, self.photos, self.framesPerSecond) = (run, photos, framesPerSecond)
        }
    }

    private let jobs: HandOffQueue<Job>
    private let thread = WorkerThread(name: "reflex-timelapse", priority: .background)
    private let runPhotos: IntervalRunPhotos
    private let numbering: CardNumbering
    private let status: StatusBoard
    private let log: SensorPipeline.Log
    private var report = TimelapseReport()
    private let encoders: [VideoEncoderChoice]

    /// `encoders`: the H.264 encoders to try, best first (the movie recorder's).
    public init(runPhotos: IntervalRunPhotos, numbering: CardNumbering, status: StatusBoard,
                encoders: [VideoEncoderChoice] = VideoEncoderChoice.batchCandidates(memoryToMemory: nil),
                log: @escaping SensorPipeline.Log) {
        (self.runPhotos, self.numbering, self.status, self.encoders, self.log) = (runPhotos, numbering, status, encoders, log)
        jobs = HandOffQueue(capacity: 4)
    }

    @discardableResult
    public func start() -> Bool {
        thread.start { [self] in
            while !thread.isStopping {
                thread.waitForWake(milliseconds: 1000)
                while !thread.isStopping, let job = jobs.receive() { assemble(job) }
            }
        }
    }

    public func stop() { thread.stop() }

    /// A run ended: its timelapse is made next (from the loop; never waits). False when
    /// four are waiting already.
    @discardableResult
    public func make(_ job: Job) -> Bool {
        guard jobs.send(job) else { return false }
        thread.wake()
        return true
    }

    // MARK: the thread

    private func assemble(_ job: Job) {
        let jpegs = runJPEGs(job)
        guard jpegs.count >= 2 else {
            return refuse(jpegs.isEmpty ? "No timelapse: the run saved no JPEGs" : "No timelapse: the run saved one JPEG")
        }
        let (choice, refused) = VideoEncoderChoice.firstThatOpens(encoders, format: .fullHD)
        guard let choice else {
            log("timelapse: no H.264 encoder opens: " + refused.map { "\($0.0): \($0.1)" }.joined(separator: "; "))
            return refuse("No timelapse: no H.264 encoder")
        }
        let movie: MovieFile
        let number: PhotoNumber
        do {
            number = try numbering.next()
            movie = try MovieFile(on: numbering.card, number: number)
        } catch {
            return refuse("No timelapse: \(error)")
        }
        report.making = true
        (report.framesDone, report.framesTotal) = (0, jpegs.count)
        status.postTimelapse(report)
        let started = monotonicSeconds()
        do throws(TimelapseFailure) {
            let frames = try encode(jpegs, framesPerSecond: job.framesPerSecond, with: choice, into: movie)
            do { try movie.finish() } catch { throw .card(error) }
            report.making = false
            report.made += 1
            (report.lastName, report.lastFrames) = (number.fileStem + "." + MovieFile.fileExtension, frames)
            report.lastSeconds = Double(frames) / Double(job.framesPerSecond)
            status.postTimelapse(report)
            log("timelapse: run \(job.run): \(frames) photos → \(movie.path) at \(job.framesPerSecond) fps "
                + "(\(Formatting.fixed(report.lastSeconds, 1)) s) in \(Formatting.fixed(monotonicSeconds() - started, 1)) s, \(choice)")
        } catch {
            // What was made up to the last whole fragment is kept, as a movie cut short is.
            let kept = movie.finishInterrupted()
            report.making = false
            refuse("Timelapse stopped: \(error)" + (kept ? " (its first part kept)" : ""))
        }
    }

    /// The run's JPEGs once its photos are saved (or the patience is out: those saved).
    private func runJPEGs(_ job: Job) -> [String] {
        var photos = runPhotos.photos(ofRun: job.run)
        var patience = RunPhotosPatience(saved: photos.saved, now: monotonicSeconds())
        while patience.waitsOn(saved: photos.saved, of: job.photos, now: monotonicSeconds()) && !thread.isStopping {
            _ = thread.pause(seconds: 0.2)
            photos = runPhotos.photos(ofRun: job.run)
        }
        return photos.jpegs
    }

    /// Each JPEG a frame (read and decoded one ahead, on a second thread), the card synced at
    /// each fragment; the frames made. A photo that cannot be read is left out (said); the
    /// camera stopping ends the movie where it is.
    private func encode(_ jpegs: [String], framesPerSecond: Int, with choice: VideoEncoderChoice,
                        into movie: MovieFile) throws(TimelapseFailure) -> Int {
        let encoder: TimelapseEncoder
        do {
            encoder = try TimelapseEncoder(choice, framesPerSecond: framesPerSecond) { movie.append($0) }
        } catch {
            throw .movie(error)
        }
        var failure: TimelapseFailure?
        TimelapseReadAhead(paths: jpegs, width: encoder.format.width, height: encoder.format.height).forEach { index, photo in
            do throws(TimelapseFailure) {
                switch photo {
                case .success(let frame):
                    var fragmentEnded = false
                    do throws(TimelapseEncoder.Failure) {
                        fragmentEnded = try encoder.add(frame)
                    } catch {
                        if case .movie(let movieError) = error { throw .movie(movieError) }
                        log("timelapse: \(error)")
                    }
                    if fragmentEnded { do throws(SystemError) { try movie.sync() } catch { throw .card(error) } }
                case .failure(let why):
                    log("timelapse: \(why)")
                }
            } catch {
                failure = error
                return false
            }
            // (A change the screen can show: every whole percent.)
            let before = report.percent
            report.framesDone = index + 1
            if report.percent != before { status.postTimelapse(report) }
            return !thread.isStopping
        }
        if let failure { throw failure }
        do { try encoder.finish() } catch { throw .movie(error) }
        return encoder.frames
    }

    private func refuse(_ why: String) {
        report.refused += 1
        report.lastRefusal = why
        status.postTimelapse(report)
        log("timelapse: " + why)
    }
}

/// Why a timelapse stopped part way.
enum TimelapseFailure: Error, CustomStringConvertible {
    case movie(MovieError)
    case card(SystemError)

    var description: String {
        switch self {
        case .movie(let error): "\(error)"
        case .card(let error): "\(error)"
        }
    }
}

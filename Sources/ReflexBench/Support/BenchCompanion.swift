import ReflexHardware

/// Work a bench runs beside the realtime loop (`bench frame`): phones watching the live view,
/// a computer fetching files over USB. What it costs the loop is the loop's figures beside a
/// run without it; its own figures are its summary.
protocol BenchCompanion: AnyObject {
    /// A sensor frame, as the sensor thread hands it to every sink (most companions ignore it).
    func deliver(_ frame: SensorFrame)
    /// The measured frames start: the companion's figures count from here.
    func begin()
    /// Its figures since `begin`, as one line.
    func summary() -> String
    func stop()
}

extension BenchCompanion {
    func deliver(_ frame: SensorFrame) {}
}

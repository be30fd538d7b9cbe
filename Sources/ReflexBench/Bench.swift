import ArgumentParser

/// `reflex bench`: speed as a product feature, measured against references in the same run.
public struct Bench: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        abstract: "Measure the camera's hot paths against reference implementations.",
        subcommands: [ISPBench.self, FrameBench.self, StartBench.self, CaptureBench.self, BurstBench.self, RecordBench.self,
                      TrackBench.self, MergeBench.self, ReviewBench.self, SoakBench.self, TimelapseBench.self, DriveBench.self,
                      RemoteBench.self, USBBench.self, InstructionsBench.self, KernelCommand.self])
}

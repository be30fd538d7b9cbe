/// What `reflex bench usb` asks of a responder it started (Reflex's function, umtprd): to
/// be serving once a host on the bus configured it, and to go after.
protocol BenchResponder {
    /// Returns once it answers PTP on its endpoints (throws if it never does).
    func ready() throws
    func stop()
}

import Testing

extension Tag {
    /// The test runs a program outside its process (LibRaw, dcraw, exiftool, jpeginfo, gpsd,
    /// mount, a child writer, the reflex binary). `image-build/tests-using-tools` names
    /// them for `swift test --skip` or `--filter`. (One tag for every suite: each test target
    /// imports it from here.)
    @Tag public static var externalTool: Self
}

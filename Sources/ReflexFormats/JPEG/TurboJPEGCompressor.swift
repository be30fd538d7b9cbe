import CTurboJPEG

/// A TurboJPEG compressor handle, owned (destroyed with this). Used by one thread at a time.
final class TurboJPEGCompressor {
    private let handle: tjhandle

    init() throws(PhotoEncodingError) {
        guard let handle = tjInitCompress() else { throw PhotoEncodingError("cannot start TurboJPEG") }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// A baseline JFIF JPEG of `image`, 4:2:0. The accurate integer DCT unless `fastDCT`
    /// (faster, slightly less exact); TurboJPEG's own default below quality 96 is the fast
    /// one, so the accurate one is asked for by name.
    func compress(_ image: RGBImage, quality: Int, fastDCT: Bool = false) throws(PhotoEncodingError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw PhotoEncodingError("the image to compress is empty") }
        guard (1...100).contains(quality) else { throw PhotoEncodingError("JPEG quality \(quality) is not 1…100") }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(jpeg) }
        let status = tjCompress2(handle, image.pixels, Int32(image.width), Int32(image.stride), Int32(image.height),
                                 Int32(TJPF_RGB.rawValue), &jpeg, &size, Int32(TJSAMP_420.rawValue), Int32(quality),
                                 fastDCT ? REFLEX_TJFLAG_FASTDCT : REFLEX_TJFLAG_ACCURATEDCT)
        guard status == 0, let jpeg else {
            throw PhotoEncodingError("TurboJPEG cannot compress: " + String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(size)))
    }
}

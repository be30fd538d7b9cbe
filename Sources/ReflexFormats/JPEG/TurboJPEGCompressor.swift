import CTurboJPEG

/// A TurboJPEG compressor handle, owned (destroyed with this). Used by one thread at a time.
public final class TurboJPEGCompressor {
    private let handle: tjhandle

    public init() throws(PhotoEncodingError) {
        guard let handle = tjInitCompress() else { throw PhotoEncodingError("cannot start TurboJPEG") }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// A baseline JFIF JPEG of `image`, 4:2:0. The accurate integer DCT unless `fastDCT`
    /// (faster, slightly less exact); TurboJPEG's own default below quality 96 is the fast
    /// one, so the accurate one is asked for by name.
    public func compress(_ image: RGBImage, quality: Int, fastDCT: Bool = false) throws(PhotoEncodingError) -> [UInt8] {
        try compress(image.pixels, width: image.width, height: image.height, pitch: image.stride, format: TJPF_RGB,
                     quality: quality, fastDCT: fastDCT)
    }

    /// A JPEG of XRGB pixels (`0x00RRGGBB` words, as the viewfinder draws them: B, G, R, X in
    /// memory), with the fast DCT: the remote's live view, many a second.
    public func compress(xrgb pixels: UnsafePointer<UInt32>, width: Int, height: Int, quality: Int) throws(PhotoEncodingError)
        -> [UInt8] {
        try UnsafeRawPointer(pixels).withMemoryRebound(to: UInt8.self, capacity: width * height * 4) { bytes throws(PhotoEncodingError) in
            try compress(bytes, width: width, height: height, pitch: width * 4, format: TJPF_BGRX, quality: quality, fastDCT: true)
        }
    }

    private func compress(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, pitch: Int, format: TJPF, quality: Int,
                          fastDCT: Bool) throws(PhotoEncodingError) -> [UInt8] {
        guard width > 0, height > 0 else { throw PhotoEncodingError("the image to compress is empty") }
        guard (1...100).contains(quality) else { throw PhotoEncodingError("JPEG quality \(quality) is not 1…100") }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(jpeg) }
        let status = tjCompress2(handle, pixels, Int32(width), Int32(pitch), Int32(height), Int32(format.rawValue), &jpeg, &size,
                                 Int32(TJSAMP_420.rawValue), Int32(quality), fastDCT ? REFLEX_TJFLAG_FASTDCT : REFLEX_TJFLAG_ACCURATEDCT)
        guard status == 0, let jpeg else {
            throw PhotoEncodingError("TurboJPEG cannot compress: " + String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(size)))
    }
}

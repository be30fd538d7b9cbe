import ReflexFormats
import ReflexHardware

/// Pictures from outside: a UVC camera's Motion-JPEG frames (the viewfinder's half-size
/// decoder) and the files review opens from a card another camera may have written (JPEGs
/// with their EXIF and thumbnail, DNGs and their lossless-JPEG tiles).
extension FuzzTarget {
    static let pictureTargets: [FuzzTarget] = [
        FuzzTarget("mjpeg", "a Motion-JPEG frame said to be 768x576 (JPEGPreviewDecoder, CJPEGDecoder)",
                   longestInput: 1 << 17) { bytes in
            guard !bytes.isEmpty else { return }
            let half = JPEGPreviewDecoder.halfSize(width: frameWidth, height: frameHeight)
            bytes.withUnsafeBytes { jpeg in
                MotionJPEG.pixels.withUnsafeMutableBytes { pixels in
                    precondition(pixels.count >= half.width * half.height * 4)
                    _ = MotionJPEG.decoder.decodeHalfSize(jpeg, width: frameWidth, height: frameHeight, into: pixels.baseAddress!)
                }
            }
        },
        FuzzTarget("jpeg-review", "a JPEG opened in review: fitted to the panel and decoded whole for zoom",
                   longestInput: 1 << 17) { bytes in
            _ = try? ReviewPicture.jpeg(bytes, fitting: 320, 240)
            _ = try? ReviewDetail.jpeg(bytes, forZoom: 1)
        },
        FuzzTarget("exif", "a JPEG's first 64 KiB as the index reads it: thumbnail, EXIF, orientation",
                   longestInput: 1 << 16) { bytes in
            _ = EmbeddedThumbnail.ofJPEG(bytes)
            _ = ReviewPhotoInfo.ofJPEG(bytes)
            _ = ExifOrientationReader.orientation(ofJPEG: bytes)
        },
        FuzzTarget("dng", "a DNG (or another camera's TIFF raw) opened in review", longestInput: 1 << 20) { bytes in
            _ = try? DNGRaw.read(bytes)
            _ = EmbeddedThumbnail.ofDNG(bytes)
            _ = ReviewPhotoInfo.ofDNG(bytes)
        },
        FuzzTarget("lossless-jpeg", "a DNG's lossless-JPEG tile (LosslessJPEGDecoder)", longestInput: 1 << 16) { bytes in
            _ = bytes.withUnsafeBufferPointer { try? LosslessJPEGDecoder.decode($0) }
        },
    ]

    static let frameWidth = 768, frameHeight = 576
}

/// The viewfinder's decoder is made once and reused frame after frame, as the camera does:
/// whatever one frame leaves behind, the next must still decode or be refused.
enum MotionJPEG {
    static let decoder = JPEGPreviewDecoder()!
    nonisolated(unsafe) static var pixels = [UInt8](repeating: 0, count: (FuzzTarget.frameWidth / 2 + 1) * (FuzzTarget.frameHeight / 2 + 1) * 4)
}

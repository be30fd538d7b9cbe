import CFFmpeg

/// How a movie's 4:2:0 stands for colour. Recordings use the video standard (BT.709, limited
/// range), which every player assumes; a timelapse made of JPEGs keeps the JPEGs' own (BT.601,
/// full range, tagged so players read it right), so each photo's planes go into the movie as
/// TurboJPEG decodes them, with no conversion at all.
public enum VideoColour: Sendable, Equatable {
    case bt709Limited
    case jpeg

    var range: AVColorRange { self == .jpeg ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG }
    var space: AVColorSpace { self == .jpeg ? AVCOL_SPC_BT470BG : AVCOL_SPC_BT709 }
    /// libswscale's coefficients and whether the range is full.
    var coefficients: UnsafePointer<Int32>! { sws_getCoefficients(self == .jpeg ? SWS_CS_ITU601 : SWS_CS_ITU709) }
    var fullRange: Int32 { self == .jpeg ? 1 : 0 }
}

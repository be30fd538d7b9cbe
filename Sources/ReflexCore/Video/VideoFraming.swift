/// The part of a sensor frame a movie shows: the centre of the frame in the movie's shape
/// (a 4:3 sensor's frame loses its top and bottom to a 16:9 movie, as every camera's video
/// mode does), narrowed by the digital zoom about `centreX`, `centreY` (fractions of the
/// frame: the middle, or where auto-zoom moved the crop), kept inside the frame; on even
/// pixels, for the colour filter.
public enum VideoFraming {
    public static func crop(sourceWidth: Int, sourceHeight: Int, movieWidth: Int, movieHeight: Int,
                            zoom: Double, centreX: Double = 0.5, centreY: Double = 0.5) -> PixelRect {
        // The largest area of the movie's aspect inside the frame.
        var width = sourceWidth, height = sourceWidth * movieHeight / movieWidth
        if height > sourceHeight { (width, height) = (sourceHeight * movieWidth / movieHeight, sourceHeight) }
        let scale = 1 / max(zoom, 1)
        width = max(2, Int((Double(width) * scale).rounded())) & ~1
        height = max(2, Int((Double(height) * scale).rounded())) & ~1
        let x = min(max(Int((centreX * Double(sourceWidth)).rounded()) - width / 2, 0), sourceWidth - width)
        let y = min(max(Int((centreY * Double(sourceHeight)).rounded()) - height / 2, 0), sourceHeight - height)
        return PixelRect(x: x & ~1, y: y & ~1, width: width, height: height)
    }
}

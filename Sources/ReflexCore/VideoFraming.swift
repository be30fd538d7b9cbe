/// The part of a sensor frame a movie shows: the centre of the frame in the movie's shape
/// (a 4:3 sensor's frame loses its top and bottom to a 16:9 movie, as every camera's video
/// mode does), narrowed by the digital zoom; on even pixels, for the colour filter.
public enum VideoFraming {
    public static func crop(sourceWidth: Int, sourceHeight: Int, movieWidth: Int, movieHeight: Int,
                            zoom: Double) -> PixelRect {
        // The largest area of the movie's aspect inside the frame.
        var width = sourceWidth, height = sourceWidth * movieHeight / movieWidth
        if height > sourceHeight { (width, height) = (sourceHeight * movieWidth / movieHeight, sourceHeight) }
        let scale = 1 / max(zoom, 1)
        width = max(2, Int((Double(width) * scale).rounded())) & ~1
        height = max(2, Int((Double(height) * scale).rounded())) & ~1
        return PixelRect(x: ((sourceWidth - width) / 2) & ~1, y: ((sourceHeight - height) / 2) & ~1,
                         width: width, height: height)
    }
}

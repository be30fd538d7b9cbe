/// The Info view's blinking highlights: the picture's clipped pixels drawn black every other
/// quarter second, as cameras have always shown where a photo lost its highlights.
enum ReviewBlink {
    static let perSecond = 4.0

    /// Blacks out `review`'s clipped pixels in the panel's `pixels`.
    static func mark(_ review: ReviewFrame, in pixels: UnsafeMutablePointer<UInt32>, stride: Int) {
        let place = review.picture
        guard place.width > 0, review.clipped.count * 64 >= place.width * place.height else { return }
        for y in place.y..<(place.y + place.height) {
            let row = pixels + y * stride
            for x in place.x..<(place.x + place.width) where review.isClipped(x: x, y: y) { row[x] = 0xFF00_0000 }
        }
    }
}

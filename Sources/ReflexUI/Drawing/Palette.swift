/// The interface's colours. A camera's UI stays out of the picture: white type on dark
/// translucent surfaces, one accent (amber, as on a camera's tally) for what is selected or
/// needs attention, nothing else coloured.
public enum Palette {
    /// The HUD bar and every surface over the picture. Dark enough that white text keeps
    /// WCAG AA contrast (≥ 4.5:1) even over a pure-white sky.
    public static let surface = Colour(hex: 0x000000, alpha: 0.72)
    public static let text = Colour(hex: 0xFFFFFF)
    /// Labels beside values: quieter than the values, still AA over the surface.
    public static let secondaryText = Colour(hex: 0xCFCFCF)
    public static let accent = Colour(hex: accentRGB)
    /// The accent as 0xRRGGBB, for what is drawn into the picture's pixels.
    public static let accentRGB: UInt32 = 0xFFB300
    /// Dark text on the accent (the selected segment of the toggle).
    public static let onAccent = Colour(hex: 0x111111)
    public static let hairline = Colour(hex: 0xFFFFFF, alpha: 0.22)
    /// The failure screens' background: near black, so a screen that says something is wrong
    /// is calm, not alarming.
    public static let screen = Colour(hex: 0x0F1012)
    public static let histogram = Colour(hex: 0xFFFFFF, alpha: 0.78)
    public static let peaking = Colour(hex: 0xFF3B30)
    /// The record button and the recording's dot: a camera's tally red.
    public static let recording = Colour(hex: 0xFF3B30)
}

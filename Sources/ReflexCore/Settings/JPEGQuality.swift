/// How finely JPEGs are compressed, as cameras name it (Sony's Extra fine, Fine, Standard;
/// Fujifilm's Fine and Normal): the libjpeg quality each stands for.
public enum JPEGQuality: String, Sendable, CaseIterable {
    case extraFine = "extra-fine", fine, normal

    public var quality: Int {
        switch self {
        case .extraFine: 97
        case .fine: 92
        case .normal: 85
        }
    }

    public var label: String {
        switch self {
        case .extraFine: "Extra fine"
        case .fine: "Fine"
        case .normal: "Normal"
        }
    }
}

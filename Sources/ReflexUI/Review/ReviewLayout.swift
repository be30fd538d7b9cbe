import ReflexCore

/// Where review's overlay sits on the panel, from the camera's layout (its scale): the item's
/// details along the top, the buttons along the bottom (Back and Index at the left thumb,
/// Delete at the right, away from Back), and the delete question in the middle.
public struct ReviewLayout: Sendable, Equatable {
    /// Two lines: the number, place and format; the date and the exposure.
    public let infoBar: PixelRect
    /// A movie's time bar, along the foot of the details (a tap there seeks).
    public let timeBar: PixelRect
    /// The picture's histogram (the Info button), under the details at the right.
    public let histogram: PixelRect
    public let buttonBar: PixelRect
    public let backButton: PixelRect
    /// The index (the menu's way to it, beside a pinch): beside Back.
    public let indexButton: PixelRect
    public let infoButton: PixelRect
    public let protectButton: PixelRect
    public let deleteButton: PixelRect
    public let dialog: PixelRect
    public let cancelAnswer: PixelRect
    public let deleteAnswer: PixelRect
    /// The index's cells are about this wide.
    public let cellTarget: Int
    /// A swipe this far across (in pixels) goes to the next or previous item.
    public let swipeDistance: Double

    public init(_ layout: ScreenLayout) {
        func px(_ design: Double) -> Int { Int((design * layout.scale).rounded()) }
        let (width, height) = (layout.width, layout.height)
        let margin = px(16), gap = px(12)
        infoBar = PixelRect(x: 0, y: 0, width: width, height: px(88))
        timeBar = PixelRect(x: px(20), y: infoBar.height - px(12), width: width - 2 * px(20), height: px(6))
        histogram = PixelRect(x: layout.histogram.x, y: infoBar.height + gap, width: layout.histogram.width,
                              height: layout.histogram.height)
        buttonBar = PixelRect(x: 0, y: height - px(88), width: width, height: px(88))
        let buttonWidth = px(152), buttonHeight = px(60), buttonY = buttonBar.y + (buttonBar.height - buttonHeight) / 2
        backButton = PixelRect(x: margin, y: buttonY, width: buttonWidth, height: buttonHeight)
        indexButton = PixelRect(x: backButton.x + buttonWidth + gap, y: buttonY, width: buttonWidth, height: buttonHeight)
        deleteButton = PixelRect(x: width - margin - buttonWidth, y: buttonY, width: buttonWidth, height: buttonHeight)
        protectButton = PixelRect(x: deleteButton.x - gap * 3 - buttonWidth, y: buttonY, width: buttonWidth, height: buttonHeight)
        infoButton = PixelRect(x: protectButton.x - gap - buttonWidth, y: buttonY, width: buttonWidth, height: buttonHeight)
        let dialogWidth = min(px(560), width - 2 * margin), dialogHeight = px(196)
        dialog = PixelRect(x: (width - dialogWidth) / 2, y: (height - dialogHeight) / 2, width: dialogWidth, height: dialogHeight)
        let answerWidth = (dialogWidth - 3 * margin) / 2, answerHeight = px(60)
        let answerY = dialog.y + dialog.height - margin - answerHeight
        cancelAnswer = PixelRect(x: dialog.x + margin, y: answerY, width: answerWidth, height: answerHeight)
        deleteAnswer = PixelRect(x: dialog.x + 2 * margin + answerWidth, y: answerY, width: answerWidth, height: answerHeight)
        swipeDistance = layout.pixels(80)
        cellTarget = px(196)
    }
}

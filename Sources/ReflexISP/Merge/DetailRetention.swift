/// How much of a scene's detail a raw frame keeps, against the same moment rendered without
/// noise (the truth): the frame's gradients (between samples two apart, the same colour, along
/// rows and columns) projected on the truth's, over the truth's own energy. A frame as sharp
/// as the truth scores 1, its noise adding nothing on average (it is uncorrelated with the
/// scene, unlike a plain gradient energy, which noise inflates); a blurred or misaligned merge
/// scores less. Enhanced RAW's alignment target is the merge's score over one frame's.
public enum DetailRetention {
    /// `samples` a `width` × `height` Bayer frame whose levels are `scale` × the truth's (a
    /// merge stored ×16), over rows `rows` and columns `columns` of the frame.
    public static func score(_ samples: [UInt16], scale: Double = 1, truth: [UInt16], width: Int, height: Int,
                             rows: Range<Int>, columns: Range<Int>) -> Double {
        precondition(samples.count >= width * height && truth.count >= width * height, "whole frames")
        let rows = max(rows.lowerBound, 0)..<min(rows.upperBound, height - 2)
        let columns = max(columns.lowerBound, 0)..<min(columns.upperBound, width - 2)
        var projected = 0.0, energy = 0.0
        for y in rows {
            for x in columns {
                let i = y * width + x
                let seenAlong = (Double(samples[i + 2]) - Double(samples[i])) / scale
                let seenDown = (Double(samples[i + 2 * width]) - Double(samples[i])) / scale
                let trueAlong = Double(truth[i + 2]) - Double(truth[i])
                let trueDown = Double(truth[i + 2 * width]) - Double(truth[i])
                projected += seenAlong * trueAlong + seenDown * trueDown
                energy += trueAlong * trueAlong + trueDown * trueDown
            }
        }
        return energy > 0 ? projected / energy : 0
    }
}

/// The XMP packet an Enhanced RAW's DNG carries in IFD0 (TIFF tag 700, where DNG editors look
/// for XMP): the number of frames merged into its raw, in Reflex's own namespace, so an
/// editor, exiftool or a script can tell a merged raw from a single frame.
public enum MergeXMP {
    public static let namespace = "http://ns.reflex-camera.org/1.0/"

    public static func packet(framesMerged: Int) -> [UInt8] {
        let text = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
            + " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
            + "  <rdf:Description rdf:about=\"\" xmlns:reflex=\"\(namespace)\" reflex:FramesMerged=\"\(framesMerged)\"/>\n"
            + " </rdf:RDF>\n"
            + "</x:xmpmeta>\n"
            + "<?xpacket end=\"w\"?>"
        return Array(text.utf8)
    }
}

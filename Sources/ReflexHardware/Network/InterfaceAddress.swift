#if canImport(Glibc)
import Glibc
#endif

/// The IPv4 address a network interface has now (Ethernet, a USB gadget's NCM, a network
/// wpa_supplicant joined): where a board that serves its remote on such a network listens.
public enum InterfaceAddress {
    /// `192.168.7.2`, or nil while the interface has no IPv4 address (or does not exist).
    public static func ipv4(of interface: String) -> String? {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return nil }
        defer { freeifaddrs(first) }
        var entry = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  String(cString: current.pointee.ifa_name) == interface else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let ok = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                withUnsafePointer(to: inet.pointee.sin_addr) { inet_ntop(AF_INET, $0, &text, socklen_t(text.count)) != nil }
            }
            if ok { return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        return nil
    }
}

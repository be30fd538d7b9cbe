import CCairo
import CDRM
import CExif
import CLibinput
import CTIFF
import CTurboJPEG
import CV4L2
import Glibc
import ReflexHardware
import Testing

/// Each C module imports, links, and its shim's constants match the kernel's and the
/// libraries' own values, checked against numbers from the headers' documentation.
@Suite("C library modules")
struct CModuleTests {
    @Test func v4l2IoctlNumbersAndFourCCs() {
        #expect(REFLEX_VIDIOC_QUERYCAP == 0x8068_5600)
        #expect(REFLEX_VIDIOC_S_CTRL == 0xC008_561C)
        #expect(REFLEX_VIDIOC_DQBUF == 0xC058_5611)
        #expect(REFLEX_V4L2_PIX_FMT_SRGGB10P == fourCC("pRAA"))
        #expect(REFLEX_V4L2_PIX_FMT_SRGGB10 == fourCC("RG10"))
        #expect(REFLEX_V4L2_PIX_FMT_SBGGR16 == fourCC("BYR2"))
        #expect(REFLEX_V4L2_PIX_FMT_YUYV == fourCC("YUYV"))
        #expect(REFLEX_V4L2_CID_GAIN == 0x0098_0913)
        #expect(REFLEX_V4L2_CID_EXPOSURE_ABSOLUTE == 0x009A_0902)
        // libv4l2 and libv4lconvert link and refuse what is not a device.
        #expect(reflex_v4l2_open("/nonexistent/video0", O_RDWR) == -1)
        var capability = v4l2_capability()
        #expect(reflex_v4l2_ioctl(-1, REFLEX_VIDIOC_QUERYCAP, &capability) == -1)
        #expect(errno == EBADF)
        #expect(v4lconvert_create(-1) == nil)
    }

    @Test func drmConstants() {
        #expect(REFLEX_DRM_FORMAT_XRGB8888 == fourCC("XR24"))
        #expect(REFLEX_DRM_FORMAT_ARGB8888 == fourCC("AR24"))
        #expect(REFLEX_DRM_IOCTL_MODE_CREATE_DUMB == 0xC020_64B2)
        #expect(String(cString: reflex_drm_connector_type_name(UInt32(DRM_MODE_CONNECTOR_VIRTUAL))) == "Virtual")
        // libdrm links and refuses what is not a DRM device.
        #expect(drmGetVersion(-1) == nil)
    }

    @Test func cairoDrawsIntoAnImageSurface() {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4)
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        cairo_set_source_rgb(cr, 1, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let pixel = cairo_image_surface_get_data(surface)!.withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        #expect(pixel == 0xFFFF_0000)
        var library: FT_Library?
        #expect(FT_Init_FreeType(&library) == 0)
        FT_Done_FreeType(library)
    }

    @Test func libexifBuildsAnEntry() {
        let data = exif_data_new()
        defer { exif_data_unref(data) }
        #expect(data != nil)
        #expect(String(cString: exif_tag_get_name(EXIF_TAG_ISO_SPEED_RATINGS)) == "ISOSpeedRatings")
        #expect(REFLEX_EXIF_TAG_GPS_LATITUDE.rawValue == 0x0002)
        #expect(REFLEX_EXIF_TAG_GPS_DATE_STAMP.rawValue == 0x001D)
    }

    @Test func turbojpegCompressesAFrame() {
        let handle = tjInitCompress()
        defer { tjDestroy(handle) }
        var pixels = [UInt8](repeating: 128, count: 16 * 16 * 3)
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = tjCompress2(handle, &pixels, 16, 0, 16, Int32(TJPF_RGB.rawValue), &jpeg, &size,
                                 Int32(TJSAMP_420.rawValue), 90, 0)
        defer { tjFree(jpeg) }
        #expect(result == 0)
        #expect(size > 100)
        #expect(jpeg?[0] == 0xFF && jpeg?[1] == 0xD8)
    }

    @Test func libtiffWrappersSetAndGetFields() {
        let path = "/tmp/reflex-cmodule-\(getpid()).tif"
        defer { unlink(path) }
        let tiff = TIFFOpen(path, "w")
        #expect(tiff != nil)
        #expect(reflex_tiff_set_u32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), 8) == 1)
        #expect(reflex_tiff_set_u16(tiff, UInt32(TIFFTAG_BITSPERSAMPLE), 16) == 1)
        var width: UInt32 = 0
        #expect(reflex_tiff_get_u32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1)
        #expect(width == 8)
        TIFFClose(tiff)
        #expect(String(cString: TIFFGetVersion()).contains("LIBTIFF"))
    }

    @Test func libinputAndUdevLink() {
        let udev = udev_new()
        #expect(udev != nil)
        udev_unref(udev)
        #expect(REFLEX_LIBINPUT_V120_PER_DETENT == 120)
        #expect(BTN_TOUCH == 0x14A)
    }

    private func fourCC(_ text: StaticString) -> UInt32 { FourCC(text).code }
}

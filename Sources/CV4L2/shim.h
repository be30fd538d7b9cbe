// libv4l2 / libv4lconvert for Swift. The VIDIOC_* numbers, fourcc codes and the
// variadic v4l2_open/v4l2_ioctl do not import: constants and wrappers stand in here.
#pragma once
#include <stdint.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>
#include <libv4l2.h>
#include <libv4l-plugin.h>
#include <libv4lconvert.h>
#include <linux/media.h>
#include <linux/v4l2-subdev.h>

static const unsigned long REFLEX_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long REFLEX_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long REFLEX_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long REFLEX_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long REFLEX_VIDIOC_TRY_FMT = VIDIOC_TRY_FMT;
static const unsigned long REFLEX_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long REFLEX_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long REFLEX_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
static const unsigned long REFLEX_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
static const unsigned long REFLEX_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long REFLEX_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const unsigned long REFLEX_VIDIOC_G_EXT_CTRLS = VIDIOC_G_EXT_CTRLS;
static const unsigned long REFLEX_VIDIOC_S_EXT_CTRLS = VIDIOC_S_EXT_CTRLS;
static const unsigned long REFLEX_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long REFLEX_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long REFLEX_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long REFLEX_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long REFLEX_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long REFLEX_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long REFLEX_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long REFLEX_VIDIOC_S_PARM = VIDIOC_S_PARM;

// The media controller (/dev/mediaN): its graph, and the subdevices' pad formats.
static const unsigned long REFLEX_MEDIA_IOC_DEVICE_INFO = MEDIA_IOC_DEVICE_INFO;
static const unsigned long REFLEX_MEDIA_IOC_G_TOPOLOGY = MEDIA_IOC_G_TOPOLOGY;
static const unsigned long REFLEX_MEDIA_IOC_SETUP_LINK = MEDIA_IOC_SETUP_LINK;
static const unsigned long REFLEX_VIDIOC_SUBDEV_G_FMT = VIDIOC_SUBDEV_G_FMT;
static const unsigned long REFLEX_VIDIOC_SUBDEV_S_FMT = VIDIOC_SUBDEV_S_FMT;
static const uint32_t REFLEX_MEDIA_PAD_FL_SOURCE = MEDIA_PAD_FL_SOURCE;
static const uint32_t REFLEX_MEDIA_LNK_FL_ENABLED = MEDIA_LNK_FL_ENABLED;
static const uint32_t REFLEX_MEDIA_LNK_FL_IMMUTABLE = MEDIA_LNK_FL_IMMUTABLE;
static const uint32_t REFLEX_MEDIA_LNK_FL_LINK_TYPE = MEDIA_LNK_FL_LINK_TYPE;
static const uint32_t REFLEX_MEDIA_LNK_FL_INTERFACE_LINK = MEDIA_LNK_FL_INTERFACE_LINK;
static const uint32_t REFLEX_MEDIA_LNK_FL_DATA_LINK = MEDIA_LNK_FL_DATA_LINK;
static const uint32_t REFLEX_MEDIA_LNK_FL_ANCILLARY_LINK = MEDIA_LNK_FL_ANCILLARY_LINK;
static const uint32_t REFLEX_MEDIA_INTF_T_V4L_VIDEO = MEDIA_INTF_T_V4L_VIDEO;
static const uint32_t REFLEX_MEDIA_INTF_T_V4L_SUBDEV = MEDIA_INTF_T_V4L_SUBDEV;
static const uint32_t REFLEX_V4L2_SUBDEV_FORMAT_ACTIVE = V4L2_SUBDEV_FORMAT_ACTIVE;
static const unsigned long REFLEX_VIDIOC_SUBDEV_ENUM_MBUS_CODE = VIDIOC_SUBDEV_ENUM_MBUS_CODE;
// A capture node whose formats follow the media graph's (it lists the pixel formats of one
// bus code when asked with ENUM_FMT's mbus_code).
static const uint32_t REFLEX_V4L2_CAP_IO_MC = V4L2_CAP_IO_MC;

// The control flag that marks "ask for the next control" in QUERY_EXT_CTRL enumeration.
static const uint32_t REFLEX_V4L2_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
static const uint32_t REFLEX_V4L2_CTRL_FLAG_NEXT_COMPOUND = V4L2_CTRL_FLAG_NEXT_COMPOUND;

// Controls the camera model maps to (ISO, shutter, focus, white balance, zoom).
static const uint32_t REFLEX_V4L2_CID_GAIN = V4L2_CID_GAIN;
static const uint32_t REFLEX_V4L2_CID_AUTOGAIN = V4L2_CID_AUTOGAIN;
static const uint32_t REFLEX_V4L2_CID_ANALOGUE_GAIN = V4L2_CID_ANALOGUE_GAIN;
static const uint32_t REFLEX_V4L2_CID_DIGITAL_GAIN = V4L2_CID_DIGITAL_GAIN;
static const uint32_t REFLEX_V4L2_CID_ISO_SENSITIVITY = V4L2_CID_ISO_SENSITIVITY;
static const uint32_t REFLEX_V4L2_CID_ISO_SENSITIVITY_AUTO = V4L2_CID_ISO_SENSITIVITY_AUTO;
static const uint32_t REFLEX_V4L2_CID_EXPOSURE = V4L2_CID_EXPOSURE;
static const uint32_t REFLEX_V4L2_CID_EXPOSURE_AUTO = V4L2_CID_EXPOSURE_AUTO;
static const uint32_t REFLEX_V4L2_CID_EXPOSURE_ABSOLUTE = V4L2_CID_EXPOSURE_ABSOLUTE;
static const uint32_t REFLEX_V4L2_CID_FOCUS_ABSOLUTE = V4L2_CID_FOCUS_ABSOLUTE;
static const uint32_t REFLEX_V4L2_CID_FOCUS_AUTO = V4L2_CID_FOCUS_AUTO;
static const uint32_t REFLEX_V4L2_CID_WHITE_BALANCE_TEMPERATURE = V4L2_CID_WHITE_BALANCE_TEMPERATURE;
static const uint32_t REFLEX_V4L2_CID_AUTO_WHITE_BALANCE = V4L2_CID_AUTO_WHITE_BALANCE;
static const uint32_t REFLEX_V4L2_CID_RED_BALANCE = V4L2_CID_RED_BALANCE;
static const uint32_t REFLEX_V4L2_CID_BLUE_BALANCE = V4L2_CID_BLUE_BALANCE;
static const uint32_t REFLEX_V4L2_CID_ZOOM_ABSOLUTE = V4L2_CID_ZOOM_ABSOLUTE;
// A CSI sensor's timing: its exposure control counts lines, whose length is
// (width + HBLANK) / PIXEL_RATE (PIXEL_RATE is a 64-bit control).
static const uint32_t REFLEX_V4L2_CID_PIXEL_RATE = V4L2_CID_PIXEL_RATE;
static const uint32_t REFLEX_V4L2_CID_HBLANK = V4L2_CID_HBLANK;
static const uint32_t REFLEX_V4L2_CID_VBLANK = V4L2_CID_VBLANK;
// A sensor's test pattern (a menu), for bringing a board up.
static const uint32_t REFLEX_V4L2_CID_TEST_PATTERN = V4L2_CID_TEST_PATTERN;
// How the sensor is mounted on its board (the device tree's `rotation`), and the flips that
// undo a half turn.
static const uint32_t REFLEX_V4L2_CID_CAMERA_SENSOR_ROTATION = V4L2_CID_CAMERA_SENSOR_ROTATION;
static const uint32_t REFLEX_V4L2_CID_HFLIP = V4L2_CID_HFLIP;
static const uint32_t REFLEX_V4L2_CID_VFLIP = V4L2_CID_VFLIP;

// Pixel formats: raw Bayer in every depth and order, MIPI CSI-2 packed, and UVC formats.
static const uint32_t REFLEX_V4L2_PIX_FMT_SRGGB8 = V4L2_PIX_FMT_SRGGB8;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGRBG8 = V4L2_PIX_FMT_SGRBG8;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGBRG8 = V4L2_PIX_FMT_SGBRG8;
static const uint32_t REFLEX_V4L2_PIX_FMT_SBGGR8 = V4L2_PIX_FMT_SBGGR8;
static const uint32_t REFLEX_V4L2_PIX_FMT_SRGGB10 = V4L2_PIX_FMT_SRGGB10;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGRBG10 = V4L2_PIX_FMT_SGRBG10;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGBRG10 = V4L2_PIX_FMT_SGBRG10;
static const uint32_t REFLEX_V4L2_PIX_FMT_SBGGR10 = V4L2_PIX_FMT_SBGGR10;
static const uint32_t REFLEX_V4L2_PIX_FMT_SRGGB12 = V4L2_PIX_FMT_SRGGB12;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGRBG12 = V4L2_PIX_FMT_SGRBG12;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGBRG12 = V4L2_PIX_FMT_SGBRG12;
static const uint32_t REFLEX_V4L2_PIX_FMT_SBGGR12 = V4L2_PIX_FMT_SBGGR12;
static const uint32_t REFLEX_V4L2_PIX_FMT_SRGGB16 = V4L2_PIX_FMT_SRGGB16;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGRBG16 = V4L2_PIX_FMT_SGRBG16;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGBRG16 = V4L2_PIX_FMT_SGBRG16;
static const uint32_t REFLEX_V4L2_PIX_FMT_SBGGR16 = V4L2_PIX_FMT_SBGGR16;
static const uint32_t REFLEX_V4L2_PIX_FMT_SRGGB10P = V4L2_PIX_FMT_SRGGB10P;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGRBG10P = V4L2_PIX_FMT_SGRBG10P;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGBRG10P = V4L2_PIX_FMT_SGBRG10P;
static const uint32_t REFLEX_V4L2_PIX_FMT_SBGGR10P = V4L2_PIX_FMT_SBGGR10P;
static const uint32_t REFLEX_V4L2_PIX_FMT_SRGGB12P = V4L2_PIX_FMT_SRGGB12P;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGRBG12P = V4L2_PIX_FMT_SGRBG12P;
static const uint32_t REFLEX_V4L2_PIX_FMT_SGBRG12P = V4L2_PIX_FMT_SGBRG12P;
static const uint32_t REFLEX_V4L2_PIX_FMT_SBGGR12P = V4L2_PIX_FMT_SBGGR12P;
static const uint32_t REFLEX_V4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const uint32_t REFLEX_V4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const uint32_t REFLEX_V4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
static const uint32_t REFLEX_V4L2_PIX_FMT_XRGB32 = V4L2_PIX_FMT_XRGB32;

/// v4l2_open is variadic in C (the mode argument); Swift cannot call it directly.
static inline int reflex_v4l2_open(const char *path, int flags) {
    return v4l2_open(path, flags);
}

/// v4l2_ioctl is variadic in C; every V4L2 request takes exactly one pointer argument.
// A subdevice or media node's ioctl (no libv4l2: it knows only video nodes).
static inline int reflex_plain_ioctl(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

static inline int reflex_v4l2_ioctl(int fd, unsigned long request, void *argument) {
    return v4l2_ioctl(fd, request, argument);
}

static const uint32_t REFLEX_V4L2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const uint32_t REFLEX_V4L2_CAP_VIDEO_CAPTURE_MPLANE = V4L2_CAP_VIDEO_CAPTURE_MPLANE;
static const uint32_t REFLEX_V4L2_CAP_STREAMING = V4L2_CAP_STREAMING;
static const uint32_t REFLEX_V4L2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;

static const uint32_t REFLEX_V4L2_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED;
static const uint32_t REFLEX_V4L2_CTRL_FLAG_READ_ONLY = V4L2_CTRL_FLAG_READ_ONLY;
static const uint32_t REFLEX_V4L2_CTRL_FLAG_GRABBED = V4L2_CTRL_FLAG_GRABBED;

/// libv4l2 must not convert: the ISP wants the sensor's raw Bayer data as it is.
static const int REFLEX_V4L2_DISABLE_CONVERSION = V4L2_DISABLE_CONVERSION;
static const uint32_t REFLEX_V4L2_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR;

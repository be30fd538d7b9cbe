// libdrm for Swift: the ioctl numbers and fourcc codes are function-like macros, which
// Swift cannot import, so they are repeated here as constants.
#pragma once
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

static const uint32_t REFLEX_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const uint32_t REFLEX_DRM_FORMAT_ARGB8888 = DRM_FORMAT_ARGB8888;
static const uint32_t REFLEX_DRM_FORMAT_RGB565 = DRM_FORMAT_RGB565;

static const unsigned long REFLEX_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
static const unsigned long REFLEX_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
static const unsigned long REFLEX_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;

static const uint32_t REFLEX_DRM_MODE_PAGE_FLIP_EVENT = DRM_MODE_PAGE_FLIP_EVENT;
static const uint32_t REFLEX_DRM_MODE_ATOMIC_NONBLOCK = DRM_MODE_ATOMIC_NONBLOCK;
static const uint32_t REFLEX_DRM_MODE_ATOMIC_ALLOW_MODESET = DRM_MODE_ATOMIC_ALLOW_MODESET;
static const uint64_t REFLEX_DRM_CLIENT_CAP_ATOMIC = DRM_CLIENT_CAP_ATOMIC;
static const uint64_t REFLEX_DRM_CLIENT_CAP_UNIVERSAL_PLANES = DRM_CLIENT_CAP_UNIVERSAL_PLANES;
static const uint64_t REFLEX_DRM_CAP_DUMB_BUFFER = DRM_CAP_DUMB_BUFFER;

/// The connector type's name as the kernel spells it ("HDMI-A", "Virtual", "DSI"...).
static inline const char *reflex_drm_connector_type_name(uint32_t type) {
    switch (type) {
    case DRM_MODE_CONNECTOR_VGA: return "VGA";
    case DRM_MODE_CONNECTOR_DVII: return "DVI-I";
    case DRM_MODE_CONNECTOR_DVID: return "DVI-D";
    case DRM_MODE_CONNECTOR_DisplayPort: return "DP";
    case DRM_MODE_CONNECTOR_HDMIA: return "HDMI-A";
    case DRM_MODE_CONNECTOR_HDMIB: return "HDMI-B";
    case DRM_MODE_CONNECTOR_LVDS: return "LVDS";
    case DRM_MODE_CONNECTOR_eDP: return "eDP";
    case DRM_MODE_CONNECTOR_VIRTUAL: return "Virtual";
    case DRM_MODE_CONNECTOR_DSI: return "DSI";
    case DRM_MODE_CONNECTOR_DPI: return "DPI";
    case DRM_MODE_CONNECTOR_WRITEBACK: return "Writeback";
    case DRM_MODE_CONNECTOR_SPI: return "SPI";
    default: return "Unknown";
    }
}

static const uint32_t REFLEX_DRM_MODE_TYPE_PREFERRED = DRM_MODE_TYPE_PREFERRED;

static const unsigned long REFLEX_DRM_IOCTL_MODE_DESTROY_DUMB_REQUEST = DRM_IOCTL_MODE_DESTROY_DUMB;
static const int REFLEX_DRM_EVENT_CONTEXT_VERSION = 2;  /* page_flip_handler, without the CRTC variant */

static const uint32_t REFLEX_DRM_MODE_OBJECT_CRTC = DRM_MODE_OBJECT_CRTC;
static const uint32_t REFLEX_DRM_MODE_OBJECT_CONNECTOR = DRM_MODE_OBJECT_CONNECTOR;
static const uint32_t REFLEX_DRM_MODE_OBJECT_PLANE = DRM_MODE_OBJECT_PLANE;
/* The values of a plane's "type" property. */
static const uint64_t REFLEX_DRM_PLANE_TYPE_OVERLAY = DRM_PLANE_TYPE_OVERLAY;
static const uint64_t REFLEX_DRM_PLANE_TYPE_PRIMARY = DRM_PLANE_TYPE_PRIMARY;
static const unsigned long REFLEX_DRM_IOCTL_MODE_ATOMIC = DRM_IOCTL_MODE_ATOMIC;

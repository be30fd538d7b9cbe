// FFmpeg's libraries (5.1 in Debian 12): the encoders, the MP4 muxer and the pixel-format
// conversion. Their error codes and "no timestamp" are macros Swift cannot import: given here
// as constants and functions.
#pragma once
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

static const int REFLEX_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int REFLEX_AVERROR_EOF = AVERROR_EOF;
static const int64_t REFLEX_AV_NOPTS_VALUE = AV_NOPTS_VALUE;

/// An FFmpeg error code as a C errno where it is one (ENOSPC from a write), else 0.
static inline int reflex_averror_to_errno(int code) { return code < 0 && code > -4096 ? -code : 0; }

/// av_err2str without its compound literal.
static inline void reflex_av_error_string(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }

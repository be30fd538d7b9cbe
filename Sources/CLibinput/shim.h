// libinput and libudev for Swift. libinput's API is plain functions and enums, which import
// as they are; what needs help is its interface struct, whose callbacks cannot capture.
#pragma once
#include <stdint.h>
#include <libinput.h>
#include <libudev.h>
#include <linux/input-event-codes.h>

// libinput reports one detent of a scroll wheel as 120 units (the "v120" API).
static const double REFLEX_LIBINPUT_V120_PER_DETENT = 120.0;

// libexif for Swift. The GPS tags are #defines that alias the plain tag numbers, so
// they are given names of their own here.
#pragma once
#include <stdint.h>
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-loader.h>

static const ExifTag REFLEX_EXIF_TAG_GPS_VERSION_ID = EXIF_TAG_GPS_VERSION_ID;
static const ExifTag REFLEX_EXIF_TAG_GPS_LATITUDE_REF = EXIF_TAG_GPS_LATITUDE_REF;
static const ExifTag REFLEX_EXIF_TAG_GPS_LATITUDE = EXIF_TAG_GPS_LATITUDE;
static const ExifTag REFLEX_EXIF_TAG_GPS_LONGITUDE_REF = EXIF_TAG_GPS_LONGITUDE_REF;
static const ExifTag REFLEX_EXIF_TAG_GPS_LONGITUDE = EXIF_TAG_GPS_LONGITUDE;
static const ExifTag REFLEX_EXIF_TAG_GPS_ALTITUDE_REF = EXIF_TAG_GPS_ALTITUDE_REF;
static const ExifTag REFLEX_EXIF_TAG_GPS_ALTITUDE = EXIF_TAG_GPS_ALTITUDE;
static const ExifTag REFLEX_EXIF_TAG_GPS_TIME_STAMP = EXIF_TAG_GPS_TIME_STAMP;
static const ExifTag REFLEX_EXIF_TAG_GPS_DATE_STAMP = EXIF_TAG_GPS_DATE_STAMP;

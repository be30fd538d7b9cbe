// What Reflex asks of OpenCV (C++), behind a C surface Swift can call: the DNN person
// detector, pyramidal Lucas-Kanade optical flow and, as a reference for the benchmark,
// OpenCV's HOG people detector. Every function catches OpenCV's exceptions and reports them
// as a message, so a bad model file or frame is an error, never an abort.
#ifndef REFLEX_CVISION_H
#define REFLEX_CVISION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct reflex_detector reflex_detector;

/// A box found, in fractions of the image (origin top left), with its score.
typedef struct {
    float x, y, width, height, score;
} reflex_box;

/// Writes the frozen TensorFlow graph at `model_path` as text (weights left out) to
/// `output_path`. 0 on success; else -1 with a message in `error`.
int reflex_write_text_graph(const char *model_path, const char *output_path, char *error, size_t error_size);

/// Loads a TensorFlow SSD: its weights from `model_path`, its structure from `graph_text`.
/// The network runs on the calling thread only (OpenCV's own threads off). NULL on failure,
/// with a message in `error`.
reflex_detector *reflex_detector_open(const char *model_path, const char *graph_text, size_t graph_length,
                                      int input_width, int input_height, char *error, size_t error_size);
void reflex_detector_close(reflex_detector *detector);

/// Loads an ONNX detector (YOLOX-style: one output of [1, N, 5 + classes] rows) whose input is
/// `input_width` x `input_height` BGR pixels of 0…255. The network runs on the calling thread
/// only. NULL on failure, with a message in `error`.
reflex_detector *reflex_detector_open_onnx(const char *model_path, int input_width, int input_height, char *error,
                                           size_t error_size);

/// Runs the network on an RGB image (3 bytes a pixel, rows `stride` bytes apart) letterboxed
/// into its input the way YOLOX was trained: scaled by `*scale` (the smaller of the two
/// sides' ratios), at the top left, the rest grey (114). Copies the output, `*rows` rows of
/// `*columns` floats, into `output` if it holds `capacity` floats; returns 0, or -1 with a
/// message in `error` (the rows and columns still said when only the capacity was short).
int reflex_detector_forward_letterboxed(reflex_detector *detector, const uint8_t *rgb, int width, int height, int stride,
                                        float *output, size_t capacity, int *rows, int *columns, float *scale,
                                        char *error, size_t error_size);

/// Finds persons (class `class_id`) scoring at least `threshold` in an RGB image (3 bytes a
/// pixel, rows `stride` bytes apart), resized to the network's input. Writes up to `capacity`
/// boxes; returns how many, or -1 with a message in `error`.
int reflex_detector_detect(reflex_detector *detector, const uint8_t *rgb, int width, int height, int stride,
                           int class_id, float threshold, reflex_box *boxes, int capacity, char *error, size_t error_size);

/// The last detection's time inside the network (OpenCV's own profile), in milliseconds.
double reflex_detector_forward_ms(const reflex_detector *detector);

/// Follows `count` points from one grey image to the next (both `width` x `height`, rows
/// `stride` bytes apart) with pyramidal Lucas-Kanade. `points` holds x, y pairs in pixels;
/// `moved` receives where each went and `found` 1 where it was followed. 0, or -1 with a message.
int reflex_flow_track(const uint8_t *previous, const uint8_t *next, int width, int height, int stride,
                      const float *points, int count, float *moved, uint8_t *found, char *error, size_t error_size);

/// Picks up to `capacity` corners worth following inside a rectangle of a grey image
/// (Shi-Tomasi); writes x, y pairs to `points` and returns how many, or -1 with a message.
int reflex_flow_corners(const uint8_t *grey, int width, int height, int stride, int x, int y, int rect_width,
                        int rect_height, float *points, int capacity, char *error, size_t error_size);

/// Cuts the object inside a rectangle of an RGB image from its background with OpenCV's
/// GrabCut (`iterations` rounds, started from the rectangle alone): `mask` (width x height)
/// receives 1 for the object's pixels, 0 for the rest. 0, or -1 with a message.
int reflex_cut_out(const uint8_t *rgb, int width, int height, int stride, int x, int y, int rect_width, int rect_height,
                   int iterations, uint8_t *mask, char *error, size_t error_size);

/// OpenCV's HOG people detector (its default SVM) on an RGB image made twice as large (its
/// window is 64x128 pixels): boxes in fractions, as above.
int reflex_hog_detect(const uint8_t *rgb, int width, int height, int stride, reflex_box *boxes, int capacity,
                      char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif

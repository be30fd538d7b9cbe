// OpenCV behind CVision.h's C surface. Each entry point catches what OpenCV throws.
#include "CVision.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

struct reflex_detector {
    cv::dnn::Net net;
    cv::Size input;
    cv::Mat blob;
    double forward_ms = 0;
};

namespace {

void report(const std::exception &failure, char *error, size_t size) {
    if (error && size > 0) std::snprintf(error, size, "%s", failure.what());
}

// An RGB image given by the caller, wrapped without a copy.
cv::Mat wrap(const uint8_t *pixels, int width, int height, int stride, int type) {
    return cv::Mat(height, width, type, const_cast<uint8_t *>(pixels), static_cast<size_t>(stride));
}

// A loaded network made a detector: OpenCV's own CPU backend, the caller's input size.
reflex_detector *prepared(cv::dnn::Net net, int input_width, int input_height) {
    auto *detector = new reflex_detector();
    detector->net = net;
    detector->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    detector->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
    detector->input = cv::Size(input_width, input_height);
    return detector;
}

}  // namespace

extern "C" int reflex_write_text_graph(const char *model_path, const char *output_path, char *error, size_t error_size) {
    try {
        cv::dnn::writeTextGraph(model_path, output_path);
        return 0;
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return -1;
    }
}

extern "C" reflex_detector *reflex_detector_open(const char *model_path, const char *graph_text, size_t graph_length,
                                                 int input_width, int input_height, char *error, size_t error_size) {
    try {
        // The analysis has one core: OpenCV's thread pool would take the others from the loop.
        cv::setNumThreads(1);
        std::vector<uchar> model;
        FILE *file = std::fopen(model_path, "rb");
        if (!file) throw std::runtime_error(std::string("cannot open ") + model_path);
        std::fseek(file, 0, SEEK_END);
        long size = std::ftell(file);
        std::fseek(file, 0, SEEK_SET);
        model.resize(size > 0 ? static_cast<size_t>(size) : 0);
        size_t read = model.empty() ? 0 : std::fread(model.data(), 1, model.size(), file);
        std::fclose(file);
        if (read != model.size() || model.empty()) throw std::runtime_error(std::string("cannot read ") + model_path);
        std::vector<uchar> graph(graph_text, graph_text + graph_length);
        return prepared(cv::dnn::readNetFromTensorflow(model, graph), input_width, input_height);
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return nullptr;
    }
}

extern "C" void reflex_detector_close(reflex_detector *detector) { delete detector; }

extern "C" reflex_detector *reflex_detector_open_onnx(const char *model_path, int input_width, int input_height,
                                                      char *error, size_t error_size) {
    try {
        cv::setNumThreads(1);
        return prepared(cv::dnn::readNetFromONNX(model_path), input_width, input_height);
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return nullptr;
    }
}

extern "C" int reflex_detector_forward_letterboxed(reflex_detector *detector, const uint8_t *rgb, int width, int height,
                                                   int stride, float *output, size_t capacity, int *rows, int *columns,
                                                   float *scale, char *error, size_t error_size) {
    try {
        cv::Mat image = wrap(rgb, width, height, stride, CV_8UC3);
        float ratio = std::min(float(detector->input.width) / width, float(detector->input.height) / height);
        cv::Size scaled(std::max(1, int(width * ratio)), std::max(1, int(height * ratio)));
        cv::Mat boxed(detector->input, CV_8UC3, cv::Scalar(114, 114, 114)), resized;
        cv::resize(image, resized, scaled, 0, 0, cv::INTER_LINEAR);
        resized.copyTo(boxed(cv::Rect(0, 0, scaled.width, scaled.height)));
        // RGB in, BGR to the network (swapRB), 0…255 as YOLOX was trained.
        cv::dnn::blobFromImage(boxed, detector->blob, 1.0, cv::Size(), cv::Scalar(), true, false, CV_32F);
        detector->net.setInput(detector->blob);
        cv::Mat out = detector->net.forward();
        std::vector<double> layers;
        detector->forward_ms = detector->net.getPerfProfile(layers) * 1000.0 / cv::getTickFrequency();
        // [1, N, C] (or [N, C]): a row a candidate.
        if (out.dims < 2 || (out.dims == 3 && out.size[0] != 1) || out.dims > 3)
            throw std::runtime_error("the network's output is not [1, N, 5 + classes] rows");
        *rows = out.size[out.dims - 2];
        *columns = out.size[out.dims - 1];
        *scale = ratio;
        size_t needed = size_t(*rows) * size_t(*columns);
        if (needed > capacity) throw std::runtime_error("the network's output is larger than its buffer");
        cv::Mat continuous = out.isContinuous() ? out : out.clone();
        std::copy(continuous.ptr<float>(), continuous.ptr<float>() + needed, output);
        return 0;
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return -1;
    }
}

extern "C" int reflex_detector_detect(reflex_detector *detector, const uint8_t *rgb, int width, int height, int stride,
                                      int class_id, float threshold, reflex_box *boxes, int capacity, char *error,
                                      size_t error_size) {
    try {
        cv::Mat image = wrap(rgb, width, height, stride, CV_8UC3);
        // The graph's own preprocessing (scale to -1…1) stays in it: the input is 0…255 RGB.
        cv::dnn::blobFromImage(image, detector->blob, 1.0, detector->input, cv::Scalar(), false, false, CV_32F);
        detector->net.setInput(detector->blob);
        cv::Mat out = detector->net.forward();
        std::vector<double> layers;
        detector->forward_ms = detector->net.getPerfProfile(layers) * 1000.0 / cv::getTickFrequency();
        // [1, 1, N, 7]: image, class, score, left, top, right, bottom (fractions).
        const float *rows = out.ptr<float>();
        int total = static_cast<int>(out.total() / 7), found = 0;
        for (int i = 0; i < total && found < capacity; i++) {
            const float *row = rows + i * 7;
            if (static_cast<int>(row[1]) != class_id || row[2] < threshold) continue;
            float left = std::max(row[3], 0.f), top = std::max(row[4], 0.f);
            float right = std::min(row[5], 1.f), bottom = std::min(row[6], 1.f);
            if (right <= left || bottom <= top) continue;
            boxes[found++] = {left, top, right - left, bottom - top, row[2]};
        }
        return found;
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return -1;
    }
}

extern "C" double reflex_detector_forward_ms(const reflex_detector *detector) { return detector->forward_ms; }

extern "C" int reflex_flow_track(const uint8_t *previous, const uint8_t *next, int width, int height, int stride,
                                 const float *points, int count, float *moved, uint8_t *found, char *error,
                                 size_t error_size) {
    try {
        if (count <= 0) return 0;
        cv::Mat before = wrap(previous, width, height, stride, CV_8UC1), after = wrap(next, width, height, stride, CV_8UC1);
        std::vector<cv::Point2f> from(count), to;
        for (int i = 0; i < count; i++) from[i] = cv::Point2f(points[2 * i], points[2 * i + 1]);
        std::vector<uchar> status;
        std::vector<float> errors;
        cv::calcOpticalFlowPyrLK(before, after, from, to, status, errors, cv::Size(15, 15), 2,
                                 cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 20, 0.03));
        for (int i = 0; i < count; i++) {
            moved[2 * i] = to[i].x;
            moved[2 * i + 1] = to[i].y;
            found[i] = status[i];
        }
        return 0;
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return -1;
    }
}

extern "C" int reflex_flow_corners(const uint8_t *grey, int width, int height, int stride, int x, int y, int rect_width,
                                   int rect_height, float *points, int capacity, char *error, size_t error_size) {
    try {
        cv::Rect area = cv::Rect(x, y, rect_width, rect_height) & cv::Rect(0, 0, width, height);
        if (area.width < 8 || area.height < 8 || capacity <= 0) return 0;
        cv::Mat image = wrap(grey, width, height, stride, CV_8UC1);
        std::vector<cv::Point2f> corners;
        cv::goodFeaturesToTrack(image(area), corners, capacity, 0.01, std::max(2, std::min(area.width, area.height) / 10));
        int count = static_cast<int>(corners.size());
        for (int i = 0; i < count; i++) {
            points[2 * i] = corners[i].x + area.x;
            points[2 * i + 1] = corners[i].y + area.y;
        }
        return count;
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return -1;
    }
}

extern "C" int reflex_hog_detect(const uint8_t *rgb, int width, int height, int stride, reflex_box *boxes, int capacity,
                                 char *error, size_t error_size) {
    try {
        // HOG's window is 64x128: people smaller than that are found only in a picture made
        // larger first (twice, as OpenCV's own people-detection sample suggests for small ones).
        cv::Mat image = wrap(rgb, width, height, stride, CV_8UC3), larger;
        cv::resize(image, larger, cv::Size(), 2, 2, cv::INTER_LINEAR);
        cv::HOGDescriptor hog;
        hog.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
        std::vector<cv::Rect> found;
        std::vector<double> weights;
        hog.detectMultiScale(larger, found, weights);
        int count = 0;
        for (size_t i = 0; i < found.size() && count < capacity; i++) {
            cv::Rect box = found[i] & cv::Rect(0, 0, larger.cols, larger.rows);
            boxes[count++] = {float(box.x) / larger.cols, float(box.y) / larger.rows, float(box.width) / larger.cols,
                              float(box.height) / larger.rows, i < weights.size() ? float(weights[i]) : 1.f};
        }
        return count;
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return -1;
    }
}

extern "C" int reflex_cut_out(const uint8_t *rgb, int width, int height, int stride, int x, int y, int rect_width,
                              int rect_height, int iterations, uint8_t *mask, char *error, size_t error_size) {
    try {
        cv::Mat image = wrap(rgb, width, height, stride, CV_8UC3), labels, background, foreground;
        cv::Rect area = cv::Rect(x, y, rect_width, rect_height) & cv::Rect(0, 0, width, height);
        if (area.width < 2 || area.height < 2) throw std::runtime_error("the rectangle is outside the image");
        cv::grabCut(image, labels, area, background, foreground, iterations, cv::GC_INIT_WITH_RECT);
        for (int row = 0; row < height; row++) {
            const uchar *label = labels.ptr<uchar>(row);
            for (int column = 0; column < width; column++) {
                mask[row * width + column] = (label[column] == cv::GC_FGD || label[column] == cv::GC_PR_FGD) ? 1 : 0;
            }
        }
        return 0;
    } catch (const std::exception &failure) {
        report(failure, error, error_size);
        return -1;
    }
}

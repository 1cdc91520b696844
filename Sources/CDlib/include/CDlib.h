// The part of dlib (Debian's 19.24) that Vision needs for faces, behind a plain C API:
// the HOG frontal face detector (no model file), the 5-point shape predictor and the face
// recognition ResNet (model files from the PyPI package face-recognition-models 0.3.0, CC0).
//
// No C++ type crosses this header: detectors, predictors and networks are opaque handles
// made and freed here; images are pointer + width + height + stride (8-bit luma or packed
// RGB). Every function catches dlib's exceptions and returns a code and a message. A handle
// is used by one thread at a time (the Swift side holds it under a lock).
#ifndef CDLIB_H
#define CDLIB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes of every idkdl_* call.
enum {
    IDKDL_OK = 0,
    /// An argument is out of range (a size, a stride, a null buffer).
    IDKDL_INVALID_ARGUMENT = 1,
    /// dlib raised an exception; the message says what it said.
    IDKDL_DLIB_FAILED = 2,
    /// Memory could not be allocated.
    IDKDL_OUT_OF_MEMORY = 3,
    /// A model file could not be deserialized (truncated, another model, not dlib's format).
    IDKDL_MODEL_CORRUPT = 4,
};

/// What a failed call says.
typedef struct idkdl_error {
    int code;
    char message[240];
} idkdl_error;

/// One face the detector found: its box in frame pixels and the detector's confidence
/// (the HOG detector's SVM margin; above 0 is a detection, larger is surer).
typedef struct idkdl_face {
    float left, top, right, bottom;
    float confidence;
} idkdl_face;

/// The HOG frontal face detector (dlib's get_frontal_face_detector: no model file).
typedef struct idkdl_detector idkdl_detector;
idkdl_detector *idkdl_detector_create(idkdl_error *error);
void idkdl_detector_destroy(idkdl_detector *detector);

/// Faces in an 8-bit luma image, best first. `upsample` doubles the image that many times
/// first (0 finds faces from about 80 pixels wide). `threshold` is added to the detector's
/// own (0 is dlib's default; negative finds more). Writes up to `capacity` faces and their
/// total number to `count`.
int idkdl_detect(idkdl_detector *detector, const uint8_t *luma, int width, int height, int stride,
    int upsample, double threshold, idkdl_face *faces, int capacity, int *count, idkdl_error *error);

/// A shape predictor loaded from a dlib model file (the 5-point one).
typedef struct idkdl_shape idkdl_shape;
idkdl_shape *idkdl_shape_load(const char *path, idkdl_error *error);
void idkdl_shape_destroy(idkdl_shape *shape);
/// The number of points the predictor gives (5 for shape_predictor_5_face_landmarks).
int idkdl_shape_points(const idkdl_shape *shape);

/// The landmarks of the face in `box` (left, top, right, bottom) in an 8-bit luma image:
/// x0,y0,x1,y1,... for `idkdl_shape_points` points, written to `points` (capacity pairs).
int idkdl_landmarks(idkdl_shape *shape, const uint8_t *luma, int width, int height, int stride,
    const float box[4], float *points, int capacity, idkdl_error *error);

/// The face recognition ResNet (dlib_face_recognition_resnet_model_v1: 128-d embeddings of
/// 150x150 aligned face chips).
typedef struct idkdl_net idkdl_net;
idkdl_net *idkdl_net_load(const char *path, idkdl_error *error);
void idkdl_net_destroy(idkdl_net *net);

/// The side of the aligned chip the network takes (150).
int idkdl_chip_size(void);

/// The aligned chip of a face (dlib's get_face_chip_details from the 5 landmarks, padding
/// `padding`; 0.25 is what the network was trained on), from a packed RGB image, written
/// as packed RGB `size` x `size` to `chip` (3 * size * size bytes).
int idkdl_chip(const uint8_t *rgb, int width, int height, int stride, const float points[10],
    int size, double padding, uint8_t *chip, idkdl_error *error);

/// The 128-d embedding of an aligned chip (packed RGB, idkdl_chip_size() square), written
/// to `embedding` (128 floats; the network's output, about unit length).
int idkdl_embed(idkdl_net *net, const uint8_t *chip, float embedding[128], idkdl_error *error);

/// The SHA-256 of a file (FIPS 180-4), read in blocks: a model is checked before dlib reads
/// it. IDKDL_INVALID_ARGUMENT with errno in `error->message` when the file cannot be read.
int idkdl_sha256_file(const char *path, uint8_t digest[32], int *error_number, idkdl_error *error);

#ifdef __cplusplus
}
#endif

#endif

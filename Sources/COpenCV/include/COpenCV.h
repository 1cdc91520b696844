// The part of OpenCV (core and imgproc, Debian's 4.6) that Vision needs, behind a plain C API.
//
// No C++ type crosses this header: a finder is an opaque handle made and freed here, images
// are pointer + width + height + stride (8-bit luma or packed RGB), and every function is
// noexcept, catching OpenCV's exceptions and returning them as a code and a message.
// OpenCV's own thread pool is switched off (cv::setNumThreads(0)) when a finder is made: a
// station analyses one frame at a time on the capture's own thread.
#ifndef COPENCV_H
#define COPENCV_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes of every idkcv_* call.
enum {
    IDKCV_OK = 0,
    /// An argument is out of range (a size, a stride, a null buffer).
    IDKCV_INVALID_ARGUMENT = 1,
    /// OpenCV raised cv::Exception; the message says what it said.
    IDKCV_OPENCV_FAILED = 2,
    /// Memory could not be allocated.
    IDKCV_OUT_OF_MEMORY = 3,
};

/// What a failed call says.
typedef struct idkcv_error {
    int code;
    char message[240];
} idkcv_error;

/// A document finder: the learned background of a fixed camera and the scratch images of
/// its analysis, kept between frames.
typedef struct idkcv_finder idkcv_finder;

/// One quadrilateral found in a frame: a document, or something the caller will reject.
typedef struct idkcv_candidate {
    /// Corners x0,y0 … x3,y3 in frame pixels, clockwise in the image, starting at the end of
    /// a long side nearest the image's top-left.
    float corners[8];
    /// The area of the quadrilateral, in frame pixels.
    float area;
    /// The part of the quadrilateral the foreground blob fills (1 for a clean document; a
    /// hand or a curved object leaves gaps or bulges).
    float fill;
    /// The part of the blob outside the quadrilateral, relative to the quadrilateral's area
    /// (fingers, a sleeve).
    float excess;
    /// Non-zero when the blob reaches the frame's border.
    int touches_edge;
    /// How many of the four sides an edge was found for along their whole length.
    int refined_sides;
} idkcv_candidate;

/// Makes a finder that analyses frames downscaled to `working_width` pixels (160…1920).
idkcv_finder *idkcv_finder_create(int working_width, idkcv_error *error);
void idkcv_finder_destroy(idkcv_finder *finder);

/// Adds an empty-station frame to the background model (a running mean and spread at the
/// working size). `weight` is the new frame's share, 0 < weight <= 1 (1 starts afresh).
/// A frame of another size than the model starts it afresh.
int idkcv_finder_learn(
    idkcv_finder *finder, const uint8_t *luma, int width, int height, int stride, float weight,
    idkcv_error *error);

/// Forgets the background.
void idkcv_finder_forget(idkcv_finder *finder);

/// How many frames the background model holds (0: none, the finder looks for edges instead).
int idkcv_finder_background_frames(const idkcv_finder *finder);

/// Finds document-like quadrilaterals in a frame, largest first.
/// - With a background model: the foreground against it (after evening out a change of the
///   camera's gain), each large blob's outline reduced to four sides, each side then fitted
///   to the strongest edge along it in the full-resolution frame.
/// - Without: closed edge contours of the working image reduced to four sides.
/// `minimum_area` is the least quadrilateral area as a part of the frame (0…1).
int idkcv_finder_find(
    idkcv_finder *finder, const uint8_t *luma, int width, int height, int stride, float minimum_area,
    idkcv_candidate *candidates, int capacity, int *count, idkcv_error *error);

/// What the last idkcv_finder_find saw besides candidates: the part of the working image that
/// differed from the background (0 without a background) and the mean absolute change of
/// the working image from the frame before, in luma levels (-1 for the first frame).
void idkcv_finder_last_frame(const idkcv_finder *finder, float *foreground, float *change);

/// How many outlines the last idkcv_finder_find left out as ghosts: the background steps
/// across them and the frame does not (something lay there when it was learned and is gone).
int idkcv_finder_last_ghosts(const idkcv_finder *finder);

/// 1 when the finder holds a background learned at frames of `width` x `height`.
int idkcv_finder_background_fits(const idkcv_finder *finder, int width, int height);

/// A grey-level closing of `source` by a `size` x `size` square (odd, 3 to 99) into `target`
/// (same size): dark things narrower than the square are filled with what surrounds them.
/// Pixels outside the image do not count.
int idkcv_closing(
    const uint8_t *source, int width, int height, int stride, int size, uint8_t *target, int target_stride,
    idkcv_error *error);

/// Warps the quadrilateral `corners` (x0,y0 … x3,y3, in the order of the output's top-left,
/// top-right, bottom-right, bottom-left) of `source` to the whole of `target` (bilinear).
/// `channels` is 1 (luma) or 3 (packed RGB) for both images.
int idkcv_warp(
    const uint8_t *source, int width, int height, int stride, int channels, const float corners[8],
    uint8_t *target, int target_width, int target_height, int target_stride, idkcv_error *error);

/// The field's usual way to find a document, for comparison only (the benchmark's baseline):
/// Canny edges of the full frame, dilated, external contours, approxPolyDP at 2% of the
/// perimeter, the largest convex four-sided polygon. `found` is 0 or 1.
int idkcv_baseline_find(
    const uint8_t *luma, int width, int height, int stride, float corners[8], int *found, idkcv_error *error);

/// Moves each side of the quadrilateral `corners` (x0,y0 … x3,y3, in order round it) to the
/// strongest straight edge near it, at most `reach_in` times the side's length inward and
/// `reach_out` times it outward: every line within the reach (its middle at 1-pixel steps,
/// its ends turned by up to a twentieth of the side) is scored by its mean contrast across
/// it (inside against outside, 1.5 pixels or more either side, over the middle eight tenths
/// of it), and the strongest few, settled at 1-pixel steps, are tried strongest first. A
/// side moves only to an edge of at least `minimum_contrast` levels stronger than where it
/// lies, and, moving three pixels or more, only over a band whose luma is nearer that of the
/// side it is left on (the outside moving in, the inside moving out); the moved lines are
/// intersected into the new corners. `moved` says how many sides moved (0: `corners` as
/// they were).
int idkcv_snap_sides(
    const uint8_t *luma, int width, int height, int stride, float corners[8], float reach_in, float reach_out,
    float minimum_contrast, int *moved, idkcv_error *error);

/// A blob of dark strokes joined along one direction: a line of text, as the rotated
/// rectangle of least area around it.
typedef struct idkcv_text_line {
    /// The rectangle's centre in frame pixels.
    float cx, cy;
    /// Its long side and its short side, in frame pixels.
    float length, thickness;
    /// The long side's direction in degrees from the image's x axis toward its y axis, -90…90.
    float angle;
    /// The part of the rectangle the blob fills.
    float fill;
} idkcv_text_line;

/// Lines of dark text on a lighter ground, in any direction: after a 3x3 Gaussian blur, a
/// black-hat of `stroke` pixels (a square) keeps what is darker than its surroundings at that
/// size, Otsu's threshold (at least 24 levels) makes it ink, a closing of `gap` pixels (a square) joins the characters of a line and not the
/// lines, and each outer contour at least `minimum_length` long and 3 times as long as thick
/// is returned, longest first, at most `capacity` (`count` says how many).
int idkcv_text_lines(
    const uint8_t *luma, int width, int height, int stride, int stroke, int gap, float minimum_length,
    idkcv_text_line *lines, int capacity, int *count, idkcv_error *error);

/// How the points of a face moved between two frames, against the best single plane.
typedef struct idkcv_parallax {
    /// Points tracked there and back within half a pixel (forward-backward check).
    int tracked;
    /// The part of them a homography (RANSAC) explains within 1.5% of the face's width.
    float inliers;
    /// The median and the 90th percentile of all tracked points' distances from where that
    /// homography puts them, as parts of the face's width.
    float median;
    float high;
    /// The median length of the points' motion, as a part of the face's width.
    float motion;
} idkcv_parallax;

/// Tracks corners of the face inside the ellipse of `box` (left, top, right, bottom in
/// `first`) from `first` to `second` (pyramidal Lucas-Kanade, both 8-bit luma of one
/// size), fits one homography to the tracks and says how far they are from it: a flat
/// picture moved in any way is one plane, a face turned is not.
int idkcv_parallax_measure(
    const uint8_t *first, const uint8_t *second, int width, int height, int stride, const float box[4],
    idkcv_parallax *result, idkcv_error *error);

/// The field's usual face detector, for comparison only (the benchmark's baseline): OpenCV's
/// Haar cascade from `cascade_path` (Debian's opencv-data), scale step 1.1, 4 neighbours,
/// faces from `minimum_size` pixels. Boxes as left, top, right, bottom.
typedef struct idkcv_cascade idkcv_cascade;
idkcv_cascade *idkcv_cascade_load(const char *cascade_path, idkcv_error *error);
void idkcv_cascade_destroy(idkcv_cascade *cascade);
int idkcv_cascade_detect(
    idkcv_cascade *cascade, const uint8_t *luma, int width, int height, int stride, int minimum_size,
    float *boxes, int capacity, int *count, idkcv_error *error);

#ifdef __cplusplus
}
#endif

#endif

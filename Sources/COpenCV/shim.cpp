// COpenCV: Vision's document finding and warping on OpenCV core and imgproc.
// C++ stays in this file; COpenCV.h is the whole interface.
#include "COpenCV.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/objdetect.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

struct idkcv_finder {
    int workingWidth = 320;
    // The background at the working size: running mean and the threshold derived from its spread.
    cv::Mat mean;       // CV_32F
    cv::Mat variance;   // CV_32F
    cv::Mat threshold;  // CV_32F, per pixel
    cv::Size frameSize; // the frame size the model was learned at
    int frames = 0;
    // What the last find saw.
    float foreground = 0, change = -1;
    // Outlines left by something the background holds and the frame no longer shows.
    int ghosts = 0;
    cv::Mat previous;
    // Scratch, kept between frames.
    cv::Mat small, smallFloat, difference, smoothDifference, texture, mask, filled, quadMask, outline, distance;
};

namespace {

void fail(idkcv_error *error, int code, const char *message) {
    if (!error) return;
    error->code = code;
    std::snprintf(error->message, sizeof error->message, "%s", message);
}

void succeed(idkcv_error *error) {
    if (!error) return;
    error->code = IDKCV_OK;
    error->message[0] = 0;
}

/// Runs `body`, turning what it throws into a code and a message.
template <typename Body> int guarded(idkcv_error *error, Body body) noexcept {
    try {
        int code = body();
        if (code == IDKCV_OK) succeed(error);
        return code;
    } catch (const cv::Exception &exception) {
        fail(error, IDKCV_OPENCV_FAILED, exception.what());
        return IDKCV_OPENCV_FAILED;
    } catch (const std::bad_alloc &) {
        fail(error, IDKCV_OUT_OF_MEMORY, "out of memory");
        return IDKCV_OUT_OF_MEMORY;
    } catch (...) {
        fail(error, IDKCV_OPENCV_FAILED, "unknown C++ exception");
        return IDKCV_OPENCV_FAILED;
    }
}

bool validImage(const uint8_t *pixels, int width, int height, int stride, int channels) {
    return pixels && width > 0 && height > 0 && width <= 16384 && height <= 16384 && stride >= width * channels;
}

cv::Mat wrap(const uint8_t *pixels, int width, int height, int stride, int channels = 1) {
    return cv::Mat(height, width, channels == 3 ? CV_8UC3 : CV_8UC1, const_cast<uint8_t *>(pixels), (size_t)stride);
}

cv::Size workingSize(const idkcv_finder *finder, int width, int height) {
    int w = std::min(finder->workingWidth, width);
    int h = std::max(1, (int)std::lround((double)height * w / width));
    return cv::Size(w, h);
}

/// The median of an 8-bit image's pixels where `mask` is set.
double median(const cv::Mat &image, const cv::Mat &mask) {
    int histogram[256] = {0};
    int total = 0;
    for (int y = 0; y < image.rows; y++) {
        const uint8_t *row = image.ptr<uint8_t>(y);
        const uint8_t *m = mask.ptr<uint8_t>(y);
        for (int x = 0; x < image.cols; x++) {
            if (m[x]) {
                histogram[row[x]]++;
                total++;
            }
        }
    }
    int seen = 0;
    for (int v = 0; v < 256; v++) {
        seen += histogram[v];
        if (seen * 2 >= total) return v;
    }
    return 128;
}

/// The four corners, clockwise in the image, starting at the start of the long side whose
/// direction points rightwards (the top of a landscape document, whatever its rotation).
std::vector<cv::Point2f> ordered(std::vector<cv::Point2f> quad) {
    // Clockwise in image coordinates (y down) means a positive shoelace sum.
    double sum = 0;
    for (int i = 0; i < 4; i++) {
        const cv::Point2f &a = quad[i], &b = quad[(i + 1) % 4];
        sum += (double)a.x * b.y - (double)b.x * a.y;
    }
    if (sum < 0) std::reverse(quad.begin(), quad.end());
    auto length = [&](int i) { return cv::norm(quad[(i + 1) % 4] - quad[i]); };
    int start = 0;
    double best = -1e9;
    for (int i = 0; i < 4; i++) {
        // Long sides are 0-1 and 2-3 or 1-2 and 3-0; prefer the pair that is longer.
        bool longSide = length(i) + length((i + 2) % 4) >= length((i + 1) % 4) + length((i + 3) % 4);
        if (!longSide) continue;
        cv::Point2f d = quad[(i + 1) % 4] - quad[i];
        double rightwards = d.x / (std::hypot(d.x, d.y) + 1e-9);
        if (rightwards > best) {
            best = rightwards;
            start = i;
        }
    }
    std::rotate(quad.begin(), quad.begin() + start, quad.end());
    return quad;
}

/// A four-sided outline of a convex hull: approxPolyDP with a growing tolerance, else the
/// minimum-area rectangle.
std::vector<cv::Point2f> quadrilateral(const std::vector<cv::Point> &hull) {
    double perimeter = cv::arcLength(hull, true);
    std::vector<cv::Point> polygon;
    for (double tolerance = 0.01; tolerance <= 0.08; tolerance += 0.005) {
        cv::approxPolyDP(hull, polygon, tolerance * perimeter, true);
        if (polygon.size() <= 4) break;
    }
    std::vector<cv::Point2f> quad;
    if (polygon.size() == 4) {
        for (const cv::Point &p : polygon) quad.emplace_back((float)p.x, (float)p.y);
    } else {
        cv::Point2f box[4];
        cv::minAreaRect(hull).points(box);
        quad.assign(box, box + 4);
    }
    return quad;
}

float bilinear(const cv::Mat &image, float x, float y) {
    x = std::clamp(x, 0.0f, (float)image.cols - 1.001f);
    y = std::clamp(y, 0.0f, (float)image.rows - 1.001f);
    int x0 = (int)x, y0 = (int)y;
    float fx = x - x0, fy = y - y0;
    const uint8_t *r0 = image.ptr<uint8_t>(y0), *r1 = image.ptr<uint8_t>(y0 + 1);
    return (1 - fy) * ((1 - fx) * r0[x0] + fx * r0[x0 + 1]) + fy * ((1 - fx) * r1[x0] + fx * r1[x0 + 1]);
}

void intersect(const cv::Vec4f lines[4], const bool fitted[4], std::vector<cv::Point2f> &quad, float limit);

/// Fits each side of `quad` (frame pixels) to the strongest edge across it within `reach`
/// pixels, robustly (a finger over part of a side moves few samples), and intersects the
/// fitted lines. Returns how many sides were fitted.
int refine(const cv::Mat &frame, std::vector<cv::Point2f> &quad, float reach) {
    const int samples = 32;
    cv::Vec4f lines[4];
    bool fitted[4] = {false, false, false, false};
    int sides = 0;
    for (int i = 0; i < 4; i++) {
        cv::Point2f a = quad[i], b = quad[(i + 1) % 4];
        cv::Point2f d = b - a;
        float length = std::hypot(d.x, d.y);
        if (length < 8) continue;
        cv::Point2f u = d / length, n(-u.y, u.x);
        std::vector<cv::Point2f> points;
        for (int k = 0; k < samples; k++) {
            float t = 0.08f + 0.84f * k / (samples - 1);
            cv::Point2f p = a + d * t;
            float bestGradient = 0, bestOffset = 0;
            float previous = bilinear(frame, p.x - n.x * (reach + 1), p.y - n.y * (reach + 1));
            float current = bilinear(frame, p.x - n.x * reach, p.y - n.y * reach);
            for (float s = -reach; s <= reach; s += 1) {
                float next = bilinear(frame, p.x + n.x * (s + 1), p.y + n.y * (s + 1));
                float gradient = std::fabs(next - previous) * 0.5f;
                if (gradient > bestGradient) {
                    bestGradient = gradient;
                    bestOffset = s;
                }
                previous = current;
                current = next;
            }
            if (bestGradient >= 6) points.push_back(p + n * bestOffset);
        }
        if ((int)points.size() < samples / 2) continue;
        cv::fitLine(points, lines[i], cv::DIST_HUBER, 0, 0.01, 0.01);
        fitted[i] = true;
        if ((int)points.size() >= samples * 3 / 4) sides++;
    }
    intersect(lines, fitted, quad, reach * 3);
    return sides;
}

/// Intersects the lines (vx, vy, x0, y0) fitted to consecutive sides into corners; a corner
/// whose sides are parallel, or that lands farther than `limit` from where it was, stays.
void intersect(const cv::Vec4f lines[4], const bool fitted[4], std::vector<cv::Point2f> &quad, float limit) {
    std::vector<cv::Point2f> corners = quad;
    for (int i = 0; i < 4; i++) {
        int previousSide = (i + 3) % 4;
        if (!fitted[i] || !fitted[previousSide]) continue;
        const cv::Vec4f &l1 = lines[previousSide], &l2 = lines[i];
        float denominator = l1[0] * l2[1] - l1[1] * l2[0];
        if (std::fabs(denominator) < 1e-4f) continue;
        float t = ((l2[2] - l1[2]) * l2[1] - (l2[3] - l1[3]) * l2[0]) / denominator;
        cv::Point2f corner(l1[2] + l1[0] * t, l1[3] + l1[1] * t);
        if (cv::norm(corner - quad[i]) <= limit) corners[i] = corner;
    }
    quad = corners;
}

/// The mean contrast across the segment from `a` to `b`: the luma `h` pixels inside it
/// (against the outward normal `n`) minus the luma `h` pixels outside it, each sample's
/// clipped to +-96 levels (one dark fleck does not make an edge), over `samples` points
/// between a tenth and nine tenths of its length (a card's rounded corners, a thumb at a
/// corner). Points off the frame do not count; under half of them on it gives 0.
float edgeContrast(const cv::Mat &frame, cv::Point2f a, cv::Point2f b, cv::Point2f n, int samples, float h) {
    float sum = 0;
    int on = 0;
    for (int k = 0; k < samples; k++) {
        cv::Point2f p = a + (b - a) * (0.1f + 0.8f * k / (samples - 1));
        if (p.x < h || p.y < h || p.x > frame.cols - 1 - h || p.y > frame.rows - 1 - h) continue;
        float g = bilinear(frame, p.x - n.x * h, p.y - n.y * h) - bilinear(frame, p.x + n.x * h, p.y + n.y * h);
        sum += std::clamp(g, -96.0f, 96.0f);
        on++;
    }
    return on * 2 >= samples ? sum / on : 0;
}

/// The mean luma of the band between the segments a-b and a2-b2 (a 12 x 4 grid of points
/// spread over it; points off the frame do not count).
float bandLuma(const cv::Mat &frame, cv::Point2f a, cv::Point2f b, cv::Point2f a2, cv::Point2f b2) {
    float sum = 0;
    int on = 0;
    for (int k = 0; k < 12; k++) {
        const float t = 0.1f + 0.8f * k / 11;
        const cv::Point2f p = a + (b - a) * t, q = a2 + (b2 - a2) * t;
        for (int j = 0; j < 4; j++) {
            const cv::Point2f r = p + (q - p) * ((j + 0.5f) / 4);
            if (r.x < 0 || r.y < 0 || r.x > frame.cols - 1 || r.y > frame.rows - 1) continue;
            sum += bilinear(frame, r.x, r.y);
            on++;
        }
    }
    return on ? sum / on : 0;
}

/// Fits each side of a working-size quadrilateral to the outline points nearest it,
/// leaving out the ends of each side (rounded card corners, a shadow's bulge), so the
/// corners are where the straight edges meet rather than where approxPolyDP cut.
void fitToOutline(const std::vector<cv::Point> &outline, std::vector<cv::Point2f> &quad) {
    std::vector<cv::Point2f> points[4];
    for (const cv::Point &p : outline) {
        cv::Point2f q((float)p.x, (float)p.y);
        int best = -1;
        float bestDistance = 1e9f;
        for (int i = 0; i < 4; i++) {
            cv::Point2f a = quad[i], b = quad[(i + 1) % 4], d = b - a;
            float length2 = d.dot(d);
            if (length2 < 1) continue;
            float t = (q - a).dot(d) / length2;
            if (t < 0.12f || t > 0.88f) continue;
            float distance = std::fabs(d.x * (q.y - a.y) - d.y * (q.x - a.x)) / std::sqrt(length2);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = i;
            }
        }
        if (best >= 0 && bestDistance <= 6) points[best].push_back(q);
    }
    cv::Vec4f lines[4];
    bool fitted[4];
    for (int i = 0; i < 4; i++) {
        fitted[i] = points[i].size() >= 8;
        if (fitted[i]) cv::fitLine(points[i], lines[i], cv::DIST_HUBER, 0, 0.01, 0.01);
    }
    intersect(lines, fitted, quad, 12);
}

/// Scales a working-size quadrilateral to the frame, orders and refines it, and adds it to
/// `found` when it is large enough.
void add(const cv::Mat &frame, std::vector<cv::Point2f> quad, double scale, double minimumArea, bool touches,
         double fill, double excess, std::vector<idkcv_candidate> &found) {
    for (cv::Point2f &p : quad) p = cv::Point2f((float)((p.x + 0.5) * scale - 0.5), (float)((p.y + 0.5) * scale - 0.5));
    quad = ordered(quad);
    refine(frame, quad, (float)std::max(4.0, 2.5 * scale));
    int sides = refine(frame, quad, (float)std::max(3.0, 1.5 * scale));
    idkcv_candidate candidate{};
    for (int i = 0; i < 4; i++) {
        candidate.corners[2 * i] = quad[i].x;
        candidate.corners[2 * i + 1] = quad[i].y;
    }
    candidate.area = (float)cv::contourArea(quad);
    candidate.fill = (float)fill;
    candidate.excess = (float)excess;
    candidate.touches_edge = touches ? 1 : 0;
    candidate.refined_sides = sides;
    if (candidate.area >= (double)frame.cols * frame.rows * minimumArea) found.push_back(candidate);
}

/// Whether a working-size point lies on the frame's border (where the frame cuts a blob:
/// no evidence of a document's side).
bool onBorder(cv::Point2f p, cv::Size size) {
    return p.x <= 1.5f || p.y <= 1.5f || p.x >= size.width - 2.5f || p.y >= size.height - 2.5f;
}

/// How much of a quadrilateral's outline lies on the blob's outline: the part of points
/// sampled along its sides within two pixels of it (`distance`: distance to the outline).
/// Points on the frame's border count as off the outline.
double support(const cv::Mat &distance, const std::vector<cv::Point2f> &quad) {
    int on = 0, total = 0;
    for (int i = 0; i < 4; i++) {
        cv::Point2f a = quad[i], b = quad[(i + 1) % 4];
        for (int k = 0; k < 24; k++) {
            cv::Point2f p = a + (b - a) * ((k + 0.5f) / 24);
            int x = (int)std::lround(p.x), y = (int)std::lround(p.y);
            total++;
            if (onBorder(p, distance.size())) continue;
            if (x >= 0 && y >= 0 && x < distance.cols && y < distance.rows && distance.at<float>(y, x) <= 2) on++;
        }
    }
    return total ? (double)on / total : 0;
}

/// A quadrilateral from the longest straight runs of the outline: where a hand or an arm
/// is merged with the document's blob, the convex hull bridges over them, but the
/// document's sides stay long straight runs. Tries every four of the eight longest runs,
/// in outline order, and keeps the convex quadrilateral whose sides the runs cover most.
/// A run along the frame's border is where the frame cuts the blob (an arm reaching in):
/// never a side.
bool quadrilateralFromRuns(const std::vector<cv::Point> &outline, double blobArea, cv::Size size, std::vector<cv::Point2f> &best) {
    std::vector<cv::Point> polygon;
    cv::approxPolyDP(outline, polygon, 0.01 * cv::arcLength(outline, true), true);
    int n = (int)polygon.size();
    if (n < 4) return false;
    std::vector<int> order(n);
    for (int i = 0; i < n; i++) order[i] = i;
    auto alongBorder = [&](int i) {
        cv::Point2f p = polygon[i], q = polygon[(i + 1) % n];
        return onBorder(p, size) && onBorder(q, size) && onBorder((p + q) * 0.5f, size);
    };
    auto length = [&](int i) { return alongBorder(i) ? 0.0 : cv::norm(polygon[(i + 1) % n] - polygon[i]); };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return length(a) > length(b); });
    order.resize(std::min(n, 8));
    std::sort(order.begin(), order.end());
    double bestScore = 0;
    int m = (int)order.size();
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++)
            for (int c = b + 1; c < m; c++)
                for (int d = c + 1; d < m; d++) {
                    int runs[4] = {order[a], order[b], order[c], order[d]};
                    cv::Vec4f lines[4];
                    bool fitted[4] = {true, true, true, true};
                    for (int i = 0; i < 4; i++) {
                        cv::Point2f p = polygon[runs[i]], q = polygon[(runs[i] + 1) % n];
                        cv::Point2f u = (q - p) / (float)std::max(1e-6, cv::norm(q - p));
                        lines[i] = cv::Vec4f(u.x, u.y, p.x, p.y);
                    }
                    std::vector<cv::Point2f> quad(4);
                    // Corner i joins run i-1 and run i; start from the runs' own ends.
                    for (int i = 0; i < 4; i++) quad[i] = polygon[runs[i]];
                    intersect(lines, fitted, quad, 1e6f);
                    std::vector<cv::Point2f> check(quad);
                    if (!cv::isContourConvex(check)) continue;
                    double area = cv::contourArea(quad);
                    if (area < blobArea * 0.3) continue;
                    // What of each side its run covers: a run that goes on past the side's
                    // corners (a cable, an arm lying along the page) counts only up to them.
                    double covered = 0;
                    for (int i = 0; i < 4; i++) {
                        cv::Point2f a = quad[i], b = quad[(i + 1) % 4];
                        double side = cv::norm(b - a);
                        if (side < 1e-6) continue;
                        cv::Point2f u = (b - a) / (float)side;
                        double tp = (cv::Point2f(polygon[runs[i]]) - a).dot(u), tq = (cv::Point2f(polygon[(runs[i] + 1) % n]) - a).dot(u);
                        covered += std::max(0.0, std::min(std::max(tp, tq), side) - std::max(std::min(tp, tq), 0.0));
                    }
                    double perimeter = cv::arcLength(quad, true);
                    double score = covered / perimeter;
                    if (score > bestScore) {
                        bestScore = score;
                        best = quad;
                    }
                }
    return bestScore > 0.5;
}

/// A quadrilateral from the outline's straight lines, found by RANSAC on its points: a
/// document's side that a finger crosses leaves two runs of the outline on one line, which
/// approxPolyDP cuts apart (and slants toward the finger) but one line holds. Finds up to
/// eight lines (each at least a twentieth of the outline, points within 1.5 pixels, refitted),
/// tries every four in each of their three cyclic orders, and keeps the convex
/// quadrilateral whose sides the lines' own points cover most (as the runs').
bool quadrilateralFromLines(const std::vector<cv::Point> &outline, double blobArea, cv::Size size, std::vector<cv::Point2f> &best) {
    const int n = (int)outline.size();
    if (n < 48) return false;
    std::vector<char> used(n, 0);
    for (int i = 0; i < n; i++) used[i] = onBorder(cv::Point2f(outline[i]), size) ? 1 : 0;
    struct Line {
        cv::Vec4f line;
        std::vector<cv::Point2f> points;
    };
    std::vector<Line> lines;
    // The outline's points not yet taken within 1.5 pixels of the line through `a` along `u`.
    auto near = [&](cv::Point2f a, cv::Point2f u) {
        std::vector<int> indices;
        for (int k = 0; k < n; k++) {
            if (used[k]) continue;
            cv::Point2f q = cv::Point2f(outline[k]) - a;
            if (std::fabs(u.x * q.y - u.y * q.x) <= 1.5f) indices.push_back(k);
        }
        return indices;
    };
    // Hypotheses: about 120 pairs of outline points `step` apart, each counted over the outline.
    const int minimum = std::max(10, n / 20), step = std::max(3, n / 60), stride = std::max(2, n / 120);
    for (int round = 0; round < 8; round++) {
        size_t bestCount = 0;
        cv::Point2f bestA, bestU;
        for (int i = 0; i < n; i += stride) {
            int j = (i + step) % n;
            if (used[i] || used[j]) continue;
            cv::Point2f a(outline[i]), b(outline[j]);
            float length = (float)cv::norm(b - a);
            if (length < 2) continue;
            cv::Point2f u = (b - a) / length;
            size_t count = near(a, u).size();
            if (count > bestCount) {
                bestCount = count;
                bestA = a;
                bestU = u;
            }
        }
        if ((int)bestCount < minimum) break;
        Line found;
        for (int k : near(bestA, bestU)) found.points.push_back(cv::Point2f(outline[k]));
        cv::fitLine(found.points, found.line, cv::DIST_HUBER, 0, 0.01, 0.01);
        // The points near the refitted line are its own, whatever the first guess took.
        found.points.clear();
        for (int k : near(cv::Point2f(found.line[2], found.line[3]), cv::Point2f(found.line[0], found.line[1]))) {
            found.points.push_back(cv::Point2f(outline[k]));
            used[k] = 1;
        }
        if ((int)found.points.size() < minimum) break;
        lines.push_back(std::move(found));
    }
    const int m = (int)lines.size();
    if (m < 4) return false;
    double bestScore = 0;
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++)
            for (int c = b + 1; c < m; c++)
                for (int d = c + 1; d < m; d++) {
                    const int cycles[3][4] = {{a, b, c, d}, {a, b, d, c}, {a, c, b, d}};
                    for (const auto &cycle : cycles) {
                        cv::Vec4f sides[4];
                        bool fitted[4] = {true, true, true, true};
                        for (int i = 0; i < 4; i++) sides[i] = lines[cycle[i]].line;
                        // Corner i joins side i-1 and side i; every pair must meet.
                        std::vector<cv::Point2f> quad(4, cv::Point2f(0, 0));
                        bool meets = true;
                        for (int i = 0; i < 4; i++) {
                            const cv::Vec4f &l1 = sides[(i + 3) % 4], &l2 = sides[i];
                            float denominator = l1[0] * l2[1] - l1[1] * l2[0];
                            if (std::fabs(denominator) < 0.2f) meets = false; // within about 12 degrees of parallel
                        }
                        if (!meets) continue;
                        intersect(sides, fitted, quad, 1e9f);
                        if (!cv::isContourConvex(quad)) continue;
                        double area = cv::contourArea(quad);
                        if (area < blobArea * 0.3 || area > blobArea * 1.2) continue;
                        bool inside = true;
                        for (const cv::Point2f &p : quad) inside &= p.x > -2 && p.y > -2 && p.x < size.width + 1 && p.y < size.height + 1;
                        if (!inside) continue;
                        // What of each side its line's points cover (one pixel each).
                        double covered = 0;
                        for (int i = 0; i < 4; i++) {
                            cv::Point2f p = quad[i], q = quad[(i + 1) % 4];
                            double side = cv::norm(q - p);
                            if (side < 1e-6) continue;
                            cv::Point2f u = (q - p) / (float)side;
                            int on = 0;
                            for (const cv::Point2f &r : lines[cycle[i]].points) {
                                double t = (r - p).dot(u);
                                if (t >= 0 && t <= side) on++;
                            }
                            covered += std::min((double)on, side);
                        }
                        double score = covered / cv::arcLength(quad, true);
                        if (score > bestScore) {
                            bestScore = score;
                            best = quad;
                        }
                    }
                }
    return bestScore > 0.5;
}

/// How sharply `image` steps across the sides of a working-size quadrilateral: per side, the
/// mean of (inside - outside) two pixels either side of it, away from the corners; the
/// mean of the sides' magnitudes. A page on a platen steps the same way all along a side;
/// the platen's own texture averages out.
double sideContrast(const cv::Mat &image, const std::vector<cv::Point2f> &quad) {
    cv::Point2f centre(0, 0);
    for (const cv::Point2f &p : quad) centre += p * 0.25f;
    double total = 0;
    for (int i = 0; i < 4; i++) {
        cv::Point2f a = quad[i], b = quad[(i + 1) % 4], d = b - a;
        float length = (float)cv::norm(d);
        if (length < 4) continue;
        cv::Point2f normal(-d.y / length, d.x / length);
        if ((centre - a).dot(normal) < 0) normal = -normal; // towards the inside
        double sum = 0;
        int n = 0;
        for (int k = 0; k < 32; k++) {
            cv::Point2f p = a + d * (0.15f + 0.7f * (k + 0.5f) / 32);
            cv::Point in = p + normal * 2.5f, out = p - normal * 2.5f;
            if (in.x < 0 || in.y < 0 || out.x < 0 || out.y < 0 || in.x >= image.cols || out.x >= image.cols ||
                in.y >= image.rows || out.y >= image.rows)
                continue;
            sum += (double)image.at<uint8_t>(in) - (double)image.at<uint8_t>(out);
            n++;
        }
        if (n) total += std::fabs(sum / n);
    }
    return total / 4;
}

/// The quadrilateral of outline `index` of `contours` (working size): its hull's, fitted to
/// the outline; where the outline does not lie along it (a hand holding the page, a cable
/// lying against it), the four longest straight runs may outline the page better.
std::vector<cv::Point2f> outlineQuadrilateral(idkcv_finder *f, const std::vector<std::vector<cv::Point>> &contours, size_t index) {
    const std::vector<cv::Point> &contour = contours[index];
    std::vector<cv::Point> hull;
    cv::convexHull(contour, hull);
    std::vector<cv::Point2f> quad = quadrilateral(hull);
    fitToOutline(contour, quad);
    f->outline.create(f->small.size(), CV_8U);
    f->outline.setTo(255);
    cv::drawContours(f->outline, contours, (int)index, cv::Scalar(0), 1);
    cv::distanceTransform(f->outline, f->distance, cv::DIST_L2, 3);
    // The hull's quadrilateral unless the outline supports another more: its runs', its lines'.
    double best = support(f->distance, quad);
    const double area = cv::contourArea(contour);
    std::vector<cv::Point2f> other;
    for (auto fit : {quadrilateralFromRuns, quadrilateralFromLines}) {
        if (best >= 0.9 || !fit(contour, area, f->small.size(), other)) continue;
        const double otherSupport = support(f->distance, other);
        if (otherSupport > best) {
            quad = other;
            best = otherSupport;
        }
    }
    return quad;
}

/// Cut by the frame when a corner of the quadrilateral found lies on its border (an arm
/// or a cable reaching in from the edge does not make the page it touches cut).
bool atBorder(const std::vector<cv::Point2f> &quad, cv::Size size) {
    bool touches = false;
    for (const cv::Point2f &p : quad) touches |= onBorder(p, size);
    return touches;
}

void findWithBackground(idkcv_finder *f, const cv::Mat &frame, double scale, double minimumArea,
                        std::vector<idkcv_candidate> &found) {
    cv::Mat &small = f->small;
    small.convertTo(f->smallFloat, CV_32F);
    // Even out a change of the camera's gain: compare the medians of the outer ring.
    cv::Mat ring(small.size(), CV_8U, cv::Scalar(255));
    int mx = std::max(2, small.cols / 16), my = std::max(2, small.rows / 16);
    ring(cv::Rect(mx, my, small.cols - 2 * mx, small.rows - 2 * my)).setTo(0);
    cv::Mat mean8;
    f->mean.convertTo(mean8, CV_8U);
    double backgroundMedian = median(mean8, ring);
    double gain = backgroundMedian > 4 ? std::clamp(median(small, ring) / backgroundMedian, 0.25, 4.0) : 1.0;
    cv::absdiff(f->smallFloat, f->mean * gain, f->difference);
    cv::compare(f->difference, f->threshold, f->mask, cv::CMP_GT);
    cv::morphologyEx(f->mask, f->mask, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
    f->foreground = (float)cv::countNonZero(f->mask) / (float)(small.cols * small.rows);
    // (The foreground above, which tells an empty platen, is the pixels' alone.)
    // Where the platen is textured (print, grain, a photograph), a page over it differs from
    // it in the texture, not pixel by pixel: the print's dark pixels differ, the light ones
    // between them do not, and the mask comes apart. The difference's mean over 7x7 pixels
    // above 9 levels (eroded back by the blur's reach) joins those pixels into the page.
    cv::blur(f->difference, f->smoothDifference, cv::Size(7, 7));
    cv::compare(f->smoothDifference, 9.0, f->texture, cv::CMP_GT);
    cv::erode(f->texture, f->texture, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
    cv::bitwise_or(f->mask, f->texture, f->mask);
    cv::morphologyEx(f->mask, f->mask, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));

    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(f->mask, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
    double workingArea = (double)small.cols * small.rows;
    f->filled.create(small.size(), CV_8U);
    f->quadMask.create(small.size(), CV_8U);
    for (size_t index = 0; index < contours.size(); index++) {
        const std::vector<cv::Point> &contour = contours[index];
        if (cv::contourArea(contour) < workingArea * minimumArea * 0.5) continue;
        std::vector<cv::Point2f> quad = outlineQuadrilateral(f, contours, index);
        bool touches = atBorder(quad, small.size());
        // A ghost: the background steps across the outline and the frame does not (a page
        // lay there when the background was learned and is gone now).
        double inFrame = sideContrast(small, quad), inBackground = sideContrast(mean8, quad);
        if (inBackground >= 10 && inBackground > 2 * inFrame) {
            f->ghosts++;
            continue;
        }

        // How well the blob fills the quadrilateral, and how much of it lies outside.
        f->filled.setTo(0);
        cv::drawContours(f->filled, contours, (int)index, cv::Scalar(255), cv::FILLED);
        f->quadMask.setTo(0);
        std::vector<cv::Point> corners;
        for (const cv::Point2f &p : quad) corners.emplace_back((int)std::lround(p.x), (int)std::lround(p.y));
        cv::fillConvexPoly(f->quadMask, corners, cv::Scalar(255));
        double quadPixels = std::max(1, cv::countNonZero(f->quadMask));
        double blobPixels = cv::countNonZero(f->filled);
        cv::bitwise_and(f->filled, f->quadMask, f->quadMask);
        double inside = cv::countNonZero(f->quadMask);

        add(frame, quad, scale, minimumArea, touches, inside / quadPixels, (blobPixels - inside) / quadPixels, found);
    }
}

void findWithEdges(idkcv_finder *f, const cv::Mat &frame, double scale, double minimumArea,
                   std::vector<idkcv_candidate> &found) {
    cv::Mat &small = f->small;
    cv::GaussianBlur(small, f->difference, cv::Size(3, 3), 0);
    cv::Canny(f->difference, f->mask, 20, 60);
    cv::dilate(f->mask, f->mask, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(f->mask, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
    double workingArea = (double)small.cols * small.rows;
    for (const std::vector<cv::Point> &contour : contours) {
        std::vector<cv::Point> hull;
        cv::convexHull(contour, hull);
        double hullArea = cv::contourArea(hull);
        if (hullArea < workingArea * minimumArea * 0.5) continue;
        std::vector<cv::Point2f> quad = outlineQuadrilateral(f, contours, (size_t)(&contour - contours.data()));
        bool touches = atBorder(quad, small.size());
        // The outline's hull against the quadrilateral: a run-based quadrilateral leaves
        // what is attached to the page (a cable, a thumb) outside it.
        double quadArea = std::max(1.0, cv::contourArea(quad));
        std::vector<cv::Point2f> hullPoints(hull.begin(), hull.end());
        std::vector<cv::Point2f> overlap;
        double inside = cv::intersectConvexConvex(hullPoints, quad, overlap, true);
        add(frame, quad, scale, minimumArea, touches, std::min(1.0, inside / quadArea), std::max(0.0, (hullArea - inside) / quadArea), found);
    }
}

} // namespace

extern "C" {

idkcv_finder *idkcv_finder_create(int working_width, idkcv_error *error) {
    if (working_width < 160 || working_width > 1920) {
        fail(error, IDKCV_INVALID_ARGUMENT, "working width must be 160 to 1920");
        return nullptr;
    }
    idkcv_finder *finder = nullptr;
    guarded(error, [&] {
        cv::setNumThreads(0);
        finder = new idkcv_finder();
        finder->workingWidth = working_width;
        return IDKCV_OK;
    });
    return finder;
}

void idkcv_finder_destroy(idkcv_finder *finder) { delete finder; }

int idkcv_finder_learn(idkcv_finder *f, const uint8_t *luma, int width, int height, int stride, float weight,
                       idkcv_error *error) {
    if (!f || !validImage(luma, width, height, stride, 1) || !(weight > 0 && weight <= 1)) {
        fail(error, IDKCV_INVALID_ARGUMENT, "learn: bad image or weight");
        return IDKCV_INVALID_ARGUMENT;
    }
    return guarded(error, [&] {
        cv::Size size = workingSize(f, width, height);
        cv::resize(wrap(luma, width, height, stride), f->small, size, 0, 0, cv::INTER_AREA);
        f->small.convertTo(f->smallFloat, CV_32F);
        if (f->frames == 0 || weight >= 1 || f->frameSize != cv::Size(width, height)) {
            f->smallFloat.copyTo(f->mean);
            f->variance = cv::Mat(size, CV_32F, cv::Scalar(4.0));
            f->frames = 0;
            f->frameSize = cv::Size(width, height);
        } else {
            cv::Mat deviation = f->smallFloat - f->mean;
            cv::accumulateWeighted(f->smallFloat, f->mean, weight);
            cv::Mat squared = deviation.mul(deviation);
            cv::accumulateWeighted(squared, f->variance, weight);
        }
        f->frames++;
        // A pixel is foreground when it differs from the mean by more than four standard
        // deviations of its own noise, and never by less than 18 levels.
        cv::sqrt(f->variance, f->threshold);
        f->threshold *= 4.0;
        cv::max(f->threshold, 18.0, f->threshold);
        return IDKCV_OK;
    });
}

void idkcv_finder_forget(idkcv_finder *finder) {
    if (finder) finder->frames = 0;
}

int idkcv_finder_background_frames(const idkcv_finder *finder) { return finder ? finder->frames : 0; }

int idkcv_finder_find(idkcv_finder *f, const uint8_t *luma, int width, int height, int stride, float minimum_area,
                      idkcv_candidate *candidates, int capacity, int *count, idkcv_error *error) {
    if (!f || !validImage(luma, width, height, stride, 1) || !candidates || capacity < 1 || !count ||
        !(minimum_area >= 0 && minimum_area < 1)) {
        fail(error, IDKCV_INVALID_ARGUMENT, "find: bad image, buffer or minimum area");
        return IDKCV_INVALID_ARGUMENT;
    }
    *count = 0;
    return guarded(error, [&] {
        cv::Mat frame = wrap(luma, width, height, stride);
        cv::Size size = workingSize(f, width, height);
        cv::resize(frame, f->small, size, 0, 0, cv::INTER_AREA);
        double scale = (double)width / size.width;
        if (f->previous.size() == f->small.size()) {
            cv::Mat change;
            cv::absdiff(f->small, f->previous, change);
            f->change = (float)cv::mean(change)[0];
        } else {
            f->change = -1;
        }
        f->small.copyTo(f->previous);
        f->foreground = 0;
        f->ghosts = 0;
        std::vector<idkcv_candidate> found;
        if (f->frames > 0 && f->frameSize == cv::Size(width, height))
            findWithBackground(f, frame, scale, minimum_area, found);
        else
            findWithEdges(f, frame, scale, minimum_area, found);
        std::sort(found.begin(), found.end(), [](const idkcv_candidate &a, const idkcv_candidate &b) { return a.area > b.area; });
        int n = std::min(capacity, (int)found.size());
        std::copy(found.begin(), found.begin() + n, candidates);
        *count = n;
        return IDKCV_OK;
    });
}

int idkcv_finder_last_ghosts(const idkcv_finder *finder) { return finder ? finder->ghosts : 0; }

int idkcv_finder_background_fits(const idkcv_finder *finder, int width, int height) {
    return finder && finder->frames > 0 && finder->frameSize == cv::Size(width, height) ? 1 : 0;
}

void idkcv_finder_last_frame(const idkcv_finder *finder, float *foreground, float *change) {
    if (foreground) *foreground = finder ? finder->foreground : 0;
    if (change) *change = finder ? finder->change : -1;
}

int idkcv_closing(const uint8_t *source, int width, int height, int stride, int size, uint8_t *target, int target_stride,
                  idkcv_error *error) {
    if (!validImage(source, width, height, stride, 1) || !validImage(target, width, height, target_stride, 1) || size < 3 ||
        size > 99 || size % 2 == 0) {
        fail(error, IDKCV_INVALID_ARGUMENT, "closing: bad image or size");
        return IDKCV_INVALID_ARGUMENT;
    }
    return guarded(error, [&] {
        cv::Mat out = wrap(target, width, height, target_stride);
        cv::morphologyEx(wrap(source, width, height, stride), out, cv::MORPH_CLOSE,
                         cv::getStructuringElement(cv::MORPH_RECT, cv::Size(size, size)));
        return IDKCV_OK;
    });
}

int idkcv_warp(const uint8_t *source, int width, int height, int stride, int channels, const float corners[8],
               uint8_t *target, int target_width, int target_height, int target_stride, idkcv_error *error) {
    if ((channels != 1 && channels != 3) || !validImage(source, width, height, stride, channels) || !corners ||
        !validImage(target, target_width, target_height, target_stride, channels)) {
        fail(error, IDKCV_INVALID_ARGUMENT, "warp: bad image, corners or channels");
        return IDKCV_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 8; i++) {
        if (!std::isfinite(corners[i]) || std::fabs(corners[i]) > 1e6f) {
            fail(error, IDKCV_INVALID_ARGUMENT, "warp: corners must be finite");
            return IDKCV_INVALID_ARGUMENT;
        }
    }
    return guarded(error, [&] {
        cv::Point2f from[4], to[4];
        for (int i = 0; i < 4; i++) from[i] = cv::Point2f(corners[2 * i], corners[2 * i + 1]);
        float w = (float)target_width - 1, h = (float)target_height - 1;
        to[0] = {0, 0};
        to[1] = {w, 0};
        to[2] = {w, h};
        to[3] = {0, h};
        cv::Mat transform = cv::getPerspectiveTransform(from, to);
        cv::Mat out = wrap(target, target_width, target_height, target_stride, channels);
        cv::warpPerspective(wrap(source, width, height, stride, channels), out, transform, out.size(), cv::INTER_LINEAR,
                            cv::BORDER_REPLICATE);
        return IDKCV_OK;
    });
}

int idkcv_text_lines(const uint8_t *luma, int width, int height, int stride, int stroke, int gap, float minimum_length,
                     idkcv_text_line *lines, int capacity, int *count, idkcv_error *error) {
    if (!validImage(luma, width, height, stride, 1) || stroke < 3 || stroke > 99 || gap < 1 || gap > 99 || !lines ||
        capacity < 1 || !count || !(minimum_length >= 0)) {
        fail(error, IDKCV_INVALID_ARGUMENT, "text lines: bad image, sizes or buffers");
        return IDKCV_INVALID_ARGUMENT;
    }
    *count = 0;
    return guarded(error, [&] {
        cv::Mat smooth, ink, joined;
        // A 3x3 blur first: sensor noise alone must not look like strokes.
        cv::GaussianBlur(wrap(luma, width, height, stride), smooth, cv::Size(3, 3), 0);
        cv::morphologyEx(smooth, ink, cv::MORPH_BLACKHAT, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(stroke, stroke)));
        // Otsu's level, but never under 24 luma levels: a frame of platen and little print
        // would otherwise split its noise.
        double level = cv::threshold(ink, joined, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        cv::threshold(ink, ink, std::max(level, 24.0), 255, cv::THRESH_BINARY);
        cv::morphologyEx(ink, joined, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(gap, gap)));
        // Every contour, not only the outermost: a page's edge or a frame printed around the
        // zone closes a ring of ink whose inside would hide the lines.
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(joined, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
        std::vector<idkcv_text_line> found;
        for (const auto &contour : contours) {
            if (contour.size() < 4) continue;
            cv::Rect box = cv::boundingRect(contour);
            if (std::max(box.width, box.height) * 1.5f < minimum_length) continue;
            cv::RotatedRect r = cv::minAreaRect(contour);
            float length = std::max(r.size.width, r.size.height), thickness = std::min(r.size.width, r.size.height);
            if (length < minimum_length || thickness < 1 || length < 3 * thickness) continue;
            // OpenCV's angle belongs to the side it calls width; turn it to the long side's.
            float angle = r.size.width >= r.size.height ? r.angle : r.angle + 90.0f;
            while (angle > 90.0f) angle -= 180.0f;
            while (angle <= -90.0f) angle += 180.0f;
            float fill = (float)(cv::contourArea(contour) / std::max(1.0, (double)length * thickness));
            found.push_back({r.center.x, r.center.y, length, thickness, angle, fill});
        }
        std::sort(found.begin(), found.end(), [](const idkcv_text_line &a, const idkcv_text_line &b) { return a.length > b.length; });
        int n = std::min((int)found.size(), capacity);
        for (int i = 0; i < n; i++) lines[i] = found[i];
        *count = n;
        return IDKCV_OK;
    });
}

int idkcv_snap_sides(const uint8_t *luma, int width, int height, int stride, float corners[8], float reach_in,
                     float reach_out, float minimum_contrast, int *moved, idkcv_error *error) {
    if (!validImage(luma, width, height, stride, 1) || !corners || !moved || !(reach_in >= 0 && reach_in < 0.5f) ||
        !(reach_out >= 0 && reach_out < 0.5f)) {
        fail(error, IDKCV_INVALID_ARGUMENT, "snap: bad image, buffers or reach");
        return IDKCV_INVALID_ARGUMENT;
    }
    *moved = 0;
    return guarded(error, [&] {
        const cv::Mat frame = wrap(luma, width, height, stride);
        std::vector<cv::Point2f> quad;
        for (int i = 0; i < 4; i++) quad.emplace_back(corners[2 * i], corners[2 * i + 1]);
        // Clockwise in the image (y down): the outward normal of a side is its direction turned left.
        double turn = 0;
        for (int i = 0; i < 4; i++) turn += (double)quad[i].x * quad[(i + 1) % 4].y - (double)quad[(i + 1) % 4].x * quad[i].y;
        const float outward = turn > 0 ? 1.0f : -1.0f;
        cv::Vec4f lines[4];
        bool fitted[4] = {true, true, true, true};
        float largest = 0;
        for (int i = 0; i < 4; i++) {
            const cv::Point2f a = quad[i], b = quad[(i + 1) % 4], d = b - a;
            const float length = std::hypot(d.x, d.y);
            lines[i] = cv::Vec4f(d.x / std::max(length, 1e-3f), d.y / std::max(length, 1e-3f), a.x, a.y);
            if (length < 16) continue;
            const cv::Point2f u = d / length, n = cv::Point2f(u.y, -u.x) * outward;
            const float h = std::max(1.5f, length / 400);
            // Offsets along the outward normal: -inward ... +outward.
            const int inward = (int)std::lround(reach_in * length), outward = (int)std::lround(reach_out * length);
            auto contrast = [&](int sa, int sb, int samples) {
                return std::fabs(edgeContrast(frame, a + n * (float)sa, b + n * (float)sb, n, samples, h));
            };
            // A side moves to a stronger edge only, and a side that moves far only over what
            // looks like the side of the edge it leaves that part on: a shadow or a hand given
            // up looks like the outside, a strip of the document taken in like the inside
            // (wood grain or a leaflet's line beyond a page does not).
            const float current = contrast(0, 0, 48);
            auto acceptable = [&](float score, int sa, int sb) {
                const int farthest = std::max(std::abs(sa), std::abs(sb));
                if (score < minimum_contrast || farthest == 0 || score < (farthest >= 3 ? 1.0f : 1.1f) * current) return false;
                if (farthest < 3) return true;
                const cv::Point2f innerA = a + n * (float)std::min(0, sa), innerB = b + n * (float)std::min(0, sb);
                const cv::Point2f outerA = a + n * (float)std::max(0, sa), outerB = b + n * (float)std::max(0, sb);
                const float width = std::max(4.0f, 0.5f * farthest);
                const float band = bandLuma(frame, innerA, innerB, outerA, outerB);
                const float inside = bandLuma(frame, innerA, innerB, innerA - n * width, innerB - n * width);
                const float outside = bandLuma(frame, outerA, outerB, outerA + n * width, outerB + n * width);
                return (sa + sb > 0) == (std::fabs(band - inside) < std::fabs(band - outside));
            };
            // Every line within the reach: its middle moved by m, its ends turned by -t and +t
            // (2-pixel steps: a line a pixel off an edge still straddles it; up to a twentieth
            // of the side). The strongest lines 3 pixels or more apart, each settled at 1-pixel
            // steps, are tried strongest first: a document's own print can make a straight
            // edge too (it fails the band).
            const int turn = std::min(24, std::max(2, (int)std::lround(0.05f * length)));
            struct Line { float score; int a, b; };
            std::vector<Line> found;
            for (int m = -inward; m <= outward; m += 2) {
                for (int t = -turn; t <= turn; t += 2) {
                    const int sa = m - t, sb = m + t;
                    if (sa < -inward || sb < -inward || sa > outward || sb > outward) continue;
                    found.push_back({contrast(sa, sb, 16), sa, sb});
                }
            }
            std::sort(found.begin(), found.end(), [](const Line &x, const Line &y) { return x.score > y.score; });
            std::vector<Line> tried;
            for (const Line &line : found) {
                if (tried.size() >= 8 || line.score < minimum_contrast) break;
                const bool near = std::any_of(tried.begin(), tried.end(), [&](const Line &o) {
                    return std::abs((o.a + o.b) - (line.a + line.b)) < 6;
                });
                if (!near) tried.push_back(line);
            }
            for (Line &line : tried) {
                line.score = contrast(line.a, line.b, 48);
                for (bool better = true; better;) {
                    better = false;
                    const Line centre = line;
                    for (int da = -1; da <= 1; da++) {
                        for (int db = -1; db <= 1; db++) {
                            const int sa = centre.a + da, sb = centre.b + db;
                            if (sa < -inward || sb < -inward || sa > outward || sb > outward) continue;
                            const float c = contrast(sa, sb, 48);
                            if (c > line.score) { line = {c, sa, sb}; better = true; }
                        }
                    }
                }
            }
            // The strongest once settled (the coarse scores, on fewer points, can alias with print).
            std::sort(tried.begin(), tried.end(), [](const Line &x, const Line &y) { return x.score > y.score; });
            int bestA = 0, bestB = 0;
            for (const Line &line : tried) {
                if (acceptable(line.score, line.a, line.b)) {
                    bestA = line.a;
                    bestB = line.b;
                    break;
                }
            }
            if (bestA == 0 && bestB == 0) continue;
            const cv::Point2f a2 = a + n * (float)bestA, b2 = b + n * (float)bestB, d2 = b2 - a2;
            const float length2 = std::hypot(d2.x, d2.y);
            lines[i] = cv::Vec4f(d2.x / length2, d2.y / length2, a2.x, a2.y);
            largest = std::max(largest, (float)std::max(std::abs(bestA), std::abs(bestB)));
            (*moved)++;
        }
        if (*moved == 0) return IDKCV_OK;
        intersect(lines, fitted, quad, 3 * largest + 4);
        for (int i = 0; i < 4; i++) {
            corners[2 * i] = quad[i].x;
            corners[2 * i + 1] = quad[i].y;
        }
        return IDKCV_OK;
    });
}

int idkcv_baseline_find(const uint8_t *luma, int width, int height, int stride, float corners[8], int *found,
                        idkcv_error *error) {
    if (!validImage(luma, width, height, stride, 1) || !corners || !found) {
        fail(error, IDKCV_INVALID_ARGUMENT, "baseline: bad image or buffers");
        return IDKCV_INVALID_ARGUMENT;
    }
    *found = 0;
    return guarded(error, [&] {
        cv::Mat blurred, edges;
        cv::GaussianBlur(wrap(luma, width, height, stride), blurred, cv::Size(5, 5), 0);
        cv::Canny(blurred, edges, 75, 200);
        cv::dilate(edges, edges, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(edges, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
        double bestArea = 0;
        for (const std::vector<cv::Point> &contour : contours) {
            std::vector<cv::Point> polygon;
            cv::approxPolyDP(contour, polygon, 0.02 * cv::arcLength(contour, true), true);
            if (polygon.size() != 4 || !cv::isContourConvex(polygon)) continue;
            double area = cv::contourArea(polygon);
            if (area <= bestArea) continue;
            bestArea = area;
            std::vector<cv::Point2f> quad;
            for (const cv::Point &p : polygon) quad.emplace_back((float)p.x, (float)p.y);
            quad = ordered(quad);
            for (int i = 0; i < 4; i++) {
                corners[2 * i] = quad[i].x;
                corners[2 * i + 1] = quad[i].y;
            }
            *found = 1;
        }
        return IDKCV_OK;
    });
}

} // extern "C"

struct idkcv_cascade {
    cv::CascadeClassifier classifier;
};

extern "C" {

int idkcv_parallax_measure(
    const uint8_t *first, const uint8_t *second, int width, int height, int stride, const float box[4],
    idkcv_parallax *result, idkcv_error *error) {
    if (!validImage(first, width, height, stride, 1) || !validImage(second, width, height, stride, 1) || !box || !result
        || !(box[2] > box[0]) || !(box[3] > box[1])) {
        fail(error, IDKCV_INVALID_ARGUMENT, "invalid argument");
        return IDKCV_INVALID_ARGUMENT;
    }
    return guarded(error, [&] {
        *result = idkcv_parallax{0, 0, 0, 0, 0};
        cv::Mat a = wrap(first, width, height, stride), b = wrap(second, width, height, stride);
        float faceWidth = box[2] - box[0];
        cv::Mat mask = cv::Mat::zeros(height, width, CV_8UC1);
        cv::ellipse(mask, cv::Point2f((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            cv::Size2f(faceWidth * 0.42f, (box[3] - box[1]) * 0.48f), 0, 0, 360, cv::Scalar(255), cv::FILLED);
        std::vector<cv::Point2f> start;
        cv::goodFeaturesToTrack(a, start, 120, 0.005, std::max(2.0, faceWidth / 25.0), mask, 5);
        if (start.size() < 8) return IDKCV_OK;
        std::vector<cv::Point2f> forward, backward;
        std::vector<uchar> ok1, ok2;
        std::vector<float> err1, err2;
        cv::Size window(21, 21);
        cv::TermCriteria criteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 0.01);
        cv::calcOpticalFlowPyrLK(a, b, start, forward, ok1, err1, window, 3, criteria);
        cv::calcOpticalFlowPyrLK(b, a, forward, backward, ok2, err2, window, 3, criteria);
        std::vector<cv::Point2f> from, to;
        for (size_t i = 0; i < start.size(); ++i) {
            if (!ok1[i] || !ok2[i]) continue;
            if (cv::norm(backward[i] - start[i]) > 0.5) continue;
            from.push_back(start[i]);
            to.push_back(forward[i]);
        }
        result->tracked = (int)from.size();
        if (from.size() < 8) return IDKCV_OK;
        std::vector<uchar> inlier;
        cv::Mat h = cv::findHomography(from, to, cv::RANSAC, 0.015 * faceWidth, inlier, 2000, 0.999);
        if (h.empty()) return IDKCV_OK;
        std::vector<cv::Point2f> mapped;
        cv::perspectiveTransform(from, mapped, h);
        std::vector<float> residuals, motions;
        int inliers = 0;
        for (size_t i = 0; i < from.size(); ++i) {
            residuals.push_back((float)cv::norm(mapped[i] - to[i]) / faceWidth);
            motions.push_back((float)cv::norm(to[i] - from[i]) / faceWidth);
            if (inlier[i]) ++inliers;
        }
        auto at = [](std::vector<float> values, double part) {
            size_t k = std::min(values.size() - 1, (size_t)(part * (values.size() - 1) + 0.5));
            std::nth_element(values.begin(), values.begin() + k, values.end());
            return values[k];
        };
        result->inliers = (float)inliers / (float)from.size();
        result->median = at(residuals, 0.5);
        result->high = at(residuals, 0.9);
        result->motion = at(motions, 0.5);
        return IDKCV_OK;
    });
}

idkcv_cascade *idkcv_cascade_load(const char *cascade_path, idkcv_error *error) {
    idkcv_cascade *made = nullptr;
    guarded(error, [&] {
        auto cascade = new idkcv_cascade{};
        if (!cascade_path || !cascade->classifier.load(cascade_path)) {
            delete cascade;
            fail(error, IDKCV_INVALID_ARGUMENT, "the cascade cannot be loaded");
            return IDKCV_INVALID_ARGUMENT;
        }
        made = cascade;
        return IDKCV_OK;
    });
    return made;
}

void idkcv_cascade_destroy(idkcv_cascade *cascade) { delete cascade; }

int idkcv_cascade_detect(
    idkcv_cascade *cascade, const uint8_t *luma, int width, int height, int stride, int minimum_size,
    float *boxes, int capacity, int *count, idkcv_error *error) {
    if (!cascade || !validImage(luma, width, height, stride, 1) || !count || (capacity > 0 && !boxes) || minimum_size < 1) {
        fail(error, IDKCV_INVALID_ARGUMENT, "invalid argument");
        return IDKCV_INVALID_ARGUMENT;
    }
    return guarded(error, [&] {
        std::vector<cv::Rect> found;
        cascade->classifier.detectMultiScale(wrap(luma, width, height, stride), found, 1.1, 4, 0, cv::Size(minimum_size, minimum_size));
        *count = (int)found.size();
        for (int i = 0; i < capacity && i < (int)found.size(); ++i) {
            boxes[4 * i] = (float)found[i].x;
            boxes[4 * i + 1] = (float)found[i].y;
            boxes[4 * i + 2] = (float)(found[i].x + found[i].width);
            boxes[4 * i + 3] = (float)(found[i].y + found[i].height);
        }
        return IDKCV_OK;
    });
}

} // extern "C"

// CDlib: dlib's face detector, 5-point shape predictor and face recognition ResNet behind
// the C API of include/CDlib.h. C++ and dlib's types stay in this file.
#include "CDlib.h"

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace {

void fail(idkdl_error *error, int code, const char *message) {
    if (!error) return;
    error->code = code;
    std::snprintf(error->message, sizeof error->message, "%s", message);
}

void ok(idkdl_error *error) {
    if (!error) return;
    error->code = IDKDL_OK;
    error->message[0] = 0;
}

/// Runs `body`, turning dlib's and the standard library's exceptions into a code.
template <typename Body> int guarded(idkdl_error *error, int failure, Body body) {
    try {
        ok(error);
        return body();
    } catch (const std::bad_alloc &) {
        fail(error, IDKDL_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception &exception) {
        fail(error, failure, exception.what());
    } catch (...) {
        fail(error, failure, "unknown exception");
    }
    return error ? error->code : failure;
}

bool validImage(const void *pixels, int width, int height, int stride, int channels) {
    return pixels && width > 0 && height > 0 && width <= 16384 && height <= 16384 && stride >= width * channels;
}

void copyLuma(const uint8_t *luma, int width, int height, int stride, dlib::array2d<unsigned char> &image) {
    image.set_size(height, width);
    for (int y = 0; y < height; ++y) std::memcpy(&image[y][0], luma + (size_t)y * stride, (size_t)width);
}

// The network of dlib_face_recognition_resnet_model_v1.dat: a ResNet-29 with 150x150 RGB
// input and a 128-d output, written out layer by layer as dlib's model file expects them
// (the file was trained with batch normalisation; affine layers load its statistics).
template <template <int, template <typename> class, int, typename> class Block, int N,
          template <typename> class BN, typename Subnet>
using residual = dlib::add_prev1<Block<N, BN, 1, dlib::tag1<Subnet>>>;

template <template <int, template <typename> class, int, typename> class Block, int N,
          template <typename> class BN, typename Subnet>
using residualDown = dlib::add_prev2<dlib::avg_pool<2, 2, 2, 2, dlib::skip1<dlib::tag2<Block<N, BN, 2, dlib::tag1<Subnet>>>>>>;

template <int N, template <typename> class BN, int Stride, typename Subnet>
using block = BN<dlib::con<N, 3, 3, 1, 1, dlib::relu<BN<dlib::con<N, 3, 3, Stride, Stride, Subnet>>>>>;

template <int N, typename Subnet> using ares = dlib::relu<residual<block, N, dlib::affine, Subnet>>;
template <int N, typename Subnet> using aresDown = dlib::relu<residualDown<block, N, dlib::affine, Subnet>>;

template <typename Subnet> using level0 = aresDown<256, Subnet>;
template <typename Subnet> using level1 = ares<256, ares<256, aresDown<256, Subnet>>>;
template <typename Subnet> using level2 = ares<128, ares<128, aresDown<128, Subnet>>>;
template <typename Subnet> using level3 = ares<64, ares<64, ares<64, aresDown<64, Subnet>>>>;
template <typename Subnet> using level4 = ares<32, ares<32, ares<32, Subnet>>>;

using FaceNet = dlib::loss_metric<dlib::fc_no_bias<128, dlib::avg_pool_everything<
    level0<level1<level2<level3<level4<
    dlib::max_pool<3, 3, 2, 2, dlib::relu<dlib::affine<dlib::con<32, 7, 7, 2, 2,
    dlib::input_rgb_image_sized<150>>>>>>>>>>>>>;

constexpr int chipSize = 150;

/// SHA-256 (FIPS 180-4) over a stream of blocks.
class SHA256 {
public:
    void update(const uint8_t *data, size_t count) {
        length += count;
        while (count > 0) {
            size_t take = std::min(count, sizeof block - used);
            std::memcpy(block + used, data, take);
            used += take;
            data += take;
            count -= take;
            if (used == sizeof block) {
                compress(block);
                used = 0;
            }
        }
    }

    void finish(uint8_t digest[32]) {
        uint64_t bits = length * 8;
        uint8_t pad = 0x80;
        update(&pad, 1);
        uint8_t zero = 0;
        while (used != 56) update(&zero, 1);
        uint8_t tail[8];
        for (int i = 0; i < 8; ++i) tail[i] = (uint8_t)(bits >> (56 - 8 * i));
        update(tail, 8);
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 4; ++j) digest[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
    }

private:
    static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

    void compress(const uint8_t *p) {
        static const uint32_t k[64] = {
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
        uint32_t w[64];
        for (int t = 0; t < 16; ++t)
            w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
        for (int t = 16; t < 64; ++t) {
            uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 64; ++t) {
            uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t] + w[t];
            uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }

    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint8_t block[64];
    size_t used = 0;
    uint64_t length = 0;
};

} // namespace

struct idkdl_detector {
    dlib::frontal_face_detector detector;
    dlib::array2d<unsigned char> image;
};

struct idkdl_shape {
    dlib::shape_predictor predictor;
    dlib::array2d<unsigned char> image;
};

struct idkdl_net {
    FaceNet net;
};

extern "C" {

idkdl_detector *idkdl_detector_create(idkdl_error *error) {
    idkdl_detector *made = nullptr;
    guarded(error, IDKDL_DLIB_FAILED, [&] {
        made = new idkdl_detector{dlib::get_frontal_face_detector(), {}};
        return IDKDL_OK;
    });
    return made;
}

void idkdl_detector_destroy(idkdl_detector *detector) { delete detector; }

int idkdl_detect(idkdl_detector *detector, const uint8_t *luma, int width, int height, int stride,
    int upsample, double threshold, idkdl_face *faces, int capacity, int *count, idkdl_error *error) {
    if (!detector || !validImage(luma, width, height, stride, 1) || upsample < 0 || upsample > 2 || capacity < 0
        || (capacity > 0 && !faces) || !count) {
        fail(error, IDKDL_INVALID_ARGUMENT, "invalid argument");
        return IDKDL_INVALID_ARGUMENT;
    }
    return guarded(error, IDKDL_DLIB_FAILED, [&] {
        copyLuma(luma, width, height, stride, detector->image);
        double scale = 1;
        for (int i = 0; i < upsample; ++i) {
            dlib::pyramid_up(detector->image);
            scale *= 2;
        }
        std::vector<dlib::rect_detection> found;
        detector->detector(detector->image, found, threshold);
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
            return a.detection_confidence > b.detection_confidence;
        });
        *count = (int)found.size();
        for (int i = 0; i < capacity && i < (int)found.size(); ++i) {
            const auto &r = found[i].rect;
            faces[i] = idkdl_face{(float)(r.left() / scale), (float)(r.top() / scale),
                (float)((r.right() + 1) / scale), (float)((r.bottom() + 1) / scale), (float)found[i].detection_confidence};
        }
        return IDKDL_OK;
    });
}

idkdl_shape *idkdl_shape_load(const char *path, idkdl_error *error) {
    if (!path) {
        fail(error, IDKDL_INVALID_ARGUMENT, "no path");
        return nullptr;
    }
    idkdl_shape *made = nullptr;
    guarded(error, IDKDL_MODEL_CORRUPT, [&] {
        auto shape = new idkdl_shape{};
        try {
            dlib::deserialize(path) >> shape->predictor;
        } catch (...) {
            delete shape;
            throw;
        }
        if (shape->predictor.num_parts() == 0) {
            delete shape;
            throw std::runtime_error("the shape predictor has no parts");
        }
        made = shape;
        return IDKDL_OK;
    });
    return made;
}

void idkdl_shape_destroy(idkdl_shape *shape) { delete shape; }

int idkdl_shape_points(const idkdl_shape *shape) { return shape ? (int)shape->predictor.num_parts() : 0; }

int idkdl_landmarks(idkdl_shape *shape, const uint8_t *luma, int width, int height, int stride,
    const float box[4], float *points, int capacity, idkdl_error *error) {
    if (!shape || !validImage(luma, width, height, stride, 1) || !box || !points
        || capacity < (int)shape->predictor.num_parts() || !(box[2] > box[0]) || !(box[3] > box[1])) {
        fail(error, IDKDL_INVALID_ARGUMENT, "invalid argument");
        return IDKDL_INVALID_ARGUMENT;
    }
    return guarded(error, IDKDL_DLIB_FAILED, [&] {
        copyLuma(luma, width, height, stride, shape->image);
        dlib::rectangle rect((long)std::lround(box[0]), (long)std::lround(box[1]),
            (long)std::lround(box[2]) - 1, (long)std::lround(box[3]) - 1);
        dlib::full_object_detection found = shape->predictor(shape->image, rect);
        for (unsigned long i = 0; i < found.num_parts(); ++i) {
            points[2 * i] = (float)found.part(i).x();
            points[2 * i + 1] = (float)found.part(i).y();
        }
        return IDKDL_OK;
    });
}

idkdl_net *idkdl_net_load(const char *path, idkdl_error *error) {
    if (!path) {
        fail(error, IDKDL_INVALID_ARGUMENT, "no path");
        return nullptr;
    }
    idkdl_net *made = nullptr;
    guarded(error, IDKDL_MODEL_CORRUPT, [&] {
        auto net = new idkdl_net{};
        try {
            dlib::deserialize(path) >> net->net;
        } catch (...) {
            delete net;
            throw;
        }
        made = net;
        return IDKDL_OK;
    });
    return made;
}

void idkdl_net_destroy(idkdl_net *net) { delete net; }

int idkdl_chip_size(void) { return chipSize; }

int idkdl_chip(const uint8_t *rgb, int width, int height, int stride, const float points[10],
    int size, double padding, uint8_t *chip, idkdl_error *error) {
    if (!validImage(rgb, width, height, stride, 3) || !points || !chip || size < 16 || size > 1024
        || !(padding >= 0 && padding <= 2)) {
        fail(error, IDKDL_INVALID_ARGUMENT, "invalid argument");
        return IDKDL_INVALID_ARGUMENT;
    }
    return guarded(error, IDKDL_DLIB_FAILED, [&] {
        dlib::matrix<dlib::rgb_pixel> image(height, width);
        for (int y = 0; y < height; ++y)
            std::memcpy(&image(y, 0), rgb + (size_t)y * stride, (size_t)width * 3);
        std::vector<dlib::point> parts;
        long left = width, top = height, right = 0, bottom = 0;
        for (int i = 0; i < 5; ++i) {
            dlib::point p((long)std::lround(points[2 * i]), (long)std::lround(points[2 * i + 1]));
            parts.push_back(p);
            left = std::min(left, p.x()); right = std::max(right, p.x());
            top = std::min(top, p.y()); bottom = std::max(bottom, p.y());
        }
        dlib::full_object_detection shape(dlib::rectangle(left, top, right, bottom), parts);
        dlib::matrix<dlib::rgb_pixel> out;
        dlib::extract_image_chip(image, dlib::get_face_chip_details(shape, (unsigned long)size, padding), out);
        for (int y = 0; y < size; ++y) std::memcpy(chip + (size_t)y * size * 3, &out(y, 0), (size_t)size * 3);
        return IDKDL_OK;
    });
}

int idkdl_embed(idkdl_net *net, const uint8_t *chip, float embedding[128], idkdl_error *error) {
    if (!net || !chip || !embedding) {
        fail(error, IDKDL_INVALID_ARGUMENT, "invalid argument");
        return IDKDL_INVALID_ARGUMENT;
    }
    return guarded(error, IDKDL_DLIB_FAILED, [&] {
        dlib::matrix<dlib::rgb_pixel> image(chipSize, chipSize);
        for (int y = 0; y < chipSize; ++y) std::memcpy(&image(y, 0), chip + (size_t)y * chipSize * 3, (size_t)chipSize * 3);
        dlib::matrix<float, 0, 1> out = net->net(image);
        if (out.size() != 128) throw std::runtime_error("the network gave an embedding of another size");
        for (int i = 0; i < 128; ++i) embedding[i] = out(i);
        return IDKDL_OK;
    });
}

int idkdl_sha256_file(const char *path, uint8_t digest[32], int *error_number, idkdl_error *error) {
    if (!path || !digest) {
        fail(error, IDKDL_INVALID_ARGUMENT, "invalid argument");
        return IDKDL_INVALID_ARGUMENT;
    }
    if (error_number) *error_number = 0;
    std::FILE *file = std::fopen(path, "rb");
    if (!file) {
        if (error_number) *error_number = errno;
        fail(error, IDKDL_INVALID_ARGUMENT, "cannot open the file");
        return IDKDL_INVALID_ARGUMENT;
    }
    SHA256 hash;
    std::vector<uint8_t> buffer(1 << 16);
    size_t count;
    while ((count = std::fread(buffer.data(), 1, buffer.size(), file)) > 0) hash.update(buffer.data(), count);
    bool failed = std::ferror(file) != 0;
    int saved = errno;
    std::fclose(file);
    if (failed) {
        if (error_number) *error_number = saved;
        fail(error, IDKDL_INVALID_ARGUMENT, "cannot read the file");
        return IDKDL_INVALID_ARGUMENT;
    }
    hash.finish(digest);
    ok(error);
    return IDKDL_OK;
}

} // extern "C"

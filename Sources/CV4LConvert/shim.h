#ifndef CV4LCONVERT_SHIM_H
#define CV4LCONVERT_SHIM_H

// libv4lconvert (Debian's libv4l-dev), the conversion library of v4l-utils, for the
// camera benchmark's baseline. The V4L2 constants it needs are macros and enum values
// Swift should not spell, so they are re-exported here as prefixed inline functions.

#include <errno.h>
#include <string.h>
#include <libv4l-plugin.h>
#include <libv4lconvert.h>
#include <linux/videodev2.h>

static inline unsigned int cv4lconvert_buf_type_video_capture(void) { return V4L2_BUF_TYPE_VIDEO_CAPTURE; }
static inline unsigned int cv4lconvert_field_none(void) { return V4L2_FIELD_NONE; }
static inline unsigned int cv4lconvert_pix_fmt_yuyv(void) { return V4L2_PIX_FMT_YUYV; }
static inline unsigned int cv4lconvert_pix_fmt_mjpeg(void) { return V4L2_PIX_FMT_MJPEG; }
static inline unsigned int cv4lconvert_pix_fmt_rgb24(void) { return V4L2_PIX_FMT_RGB24; }
static inline unsigned int cv4lconvert_pix_fmt_yuv420(void) { return V4L2_PIX_FMT_YUV420; }

// libv4lconvert insists on asking a device what it is, even to convert a buffer in
// memory. This stand-in device says it is a capture device and refuses every other
// question, so the conversions run with no processing (no flips, no white balance).
static inline int cv4lconvert_no_device_ioctl(void *priv, int fd, unsigned long request, void *argument) {
    (void)priv;
    (void)fd;
    if (request == VIDIOC_QUERYCAP) {
        struct v4l2_capability *cap = argument;
        memset(cap, 0, sizeof *cap);
        strcpy((char *)cap->driver, "idkiosk-bench");
        strcpy((char *)cap->card, "idkiosk-bench");
        cap->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        cap->device_caps = cap->capabilities;
        return 0;
    }
    errno = EINVAL;
    return -1;
}

/// v4lconvert_create_with_dev_ops with the stand-in device above.
static inline struct v4lconvert_data *cv4lconvert_create_without_device(void) {
    static const struct libv4l_dev_ops ops = {.ioctl = cv4lconvert_no_device_ioctl};
    return v4lconvert_create_with_dev_ops(-1, NULL, &ops);
}

#endif

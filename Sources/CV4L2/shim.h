#ifndef CV4L2_SHIM_H
#define CV4L2_SHIM_H

// The V4L2 API as Swift sees it. ioctl request numbers (_IOR/_IOWR macros), fourcc
// codes (v4l2_fourcc) and the variadic ioctl itself cannot be imported by Swift, so
// they are re-exported here as prefixed inline functions; Swift never spells a V4L2
// number itself.

#include <linux/videodev2.h>
#include <sys/ioctl.h>

/// ioctl(2) with a pointer argument: the only form V4L2 uses.
static inline int cv4l2_ioctl(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

// ioctl request numbers
static inline unsigned long cv4l2_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long cv4l2_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long cv4l2_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long cv4l2_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long cv4l2_vidioc_g_fmt(void) { return VIDIOC_G_FMT; }
static inline unsigned long cv4l2_vidioc_s_fmt(void) { return VIDIOC_S_FMT; }
static inline unsigned long cv4l2_vidioc_g_parm(void) { return VIDIOC_G_PARM; }
static inline unsigned long cv4l2_vidioc_s_parm(void) { return VIDIOC_S_PARM; }
static inline unsigned long cv4l2_vidioc_reqbufs(void) { return VIDIOC_REQBUFS; }
static inline unsigned long cv4l2_vidioc_querybuf(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long cv4l2_vidioc_qbuf(void) { return VIDIOC_QBUF; }
static inline unsigned long cv4l2_vidioc_dqbuf(void) { return VIDIOC_DQBUF; }
static inline unsigned long cv4l2_vidioc_streamon(void) { return VIDIOC_STREAMON; }
static inline unsigned long cv4l2_vidioc_streamoff(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long cv4l2_vidioc_query_ext_ctrl(void) { return VIDIOC_QUERY_EXT_CTRL; }
static inline unsigned long cv4l2_vidioc_querymenu(void) { return VIDIOC_QUERYMENU; }
static inline unsigned long cv4l2_vidioc_g_ctrl(void) { return VIDIOC_G_CTRL; }
static inline unsigned long cv4l2_vidioc_s_ctrl(void) { return VIDIOC_S_CTRL; }
static inline unsigned long cv4l2_vidioc_enum_input(void) { return VIDIOC_ENUMINPUT; }
static inline unsigned long cv4l2_vidioc_s_input(void) { return VIDIOC_S_INPUT; }

// fourcc pixel formats (built by the function-like macro v4l2_fourcc)
static inline unsigned int cv4l2_pix_fmt_yuyv(void) { return V4L2_PIX_FMT_YUYV; }
static inline unsigned int cv4l2_pix_fmt_uyvy(void) { return V4L2_PIX_FMT_UYVY; }
static inline unsigned int cv4l2_pix_fmt_nv12(void) { return V4L2_PIX_FMT_NV12; }
static inline unsigned int cv4l2_pix_fmt_yuv420(void) { return V4L2_PIX_FMT_YUV420; }
static inline unsigned int cv4l2_pix_fmt_grey(void) { return V4L2_PIX_FMT_GREY; }
static inline unsigned int cv4l2_pix_fmt_rgb24(void) { return V4L2_PIX_FMT_RGB24; }
static inline unsigned int cv4l2_pix_fmt_mjpeg(void) { return V4L2_PIX_FMT_MJPEG; }
static inline unsigned int cv4l2_pix_fmt_jpeg(void) { return V4L2_PIX_FMT_JPEG; }

// control ids and classes (some are built from other macros Swift may not fold)
static inline unsigned int cv4l2_cid_brightness(void) { return V4L2_CID_BRIGHTNESS; }
static inline unsigned int cv4l2_cid_contrast(void) { return V4L2_CID_CONTRAST; }
static inline unsigned int cv4l2_cid_gain(void) { return V4L2_CID_GAIN; }
static inline unsigned int cv4l2_cid_autogain(void) { return V4L2_CID_AUTOGAIN; }
static inline unsigned int cv4l2_cid_exposure(void) { return V4L2_CID_EXPOSURE; }
static inline unsigned int cv4l2_cid_exposure_absolute(void) { return V4L2_CID_EXPOSURE_ABSOLUTE; }
static inline unsigned int cv4l2_cid_exposure_auto(void) { return V4L2_CID_EXPOSURE_AUTO; }
static inline unsigned int cv4l2_cid_auto_white_balance(void) { return V4L2_CID_AUTO_WHITE_BALANCE; }
static inline unsigned int cv4l2_cid_white_balance_temperature(void) { return V4L2_CID_WHITE_BALANCE_TEMPERATURE; }
static inline unsigned int cv4l2_cid_focus_absolute(void) { return V4L2_CID_FOCUS_ABSOLUTE; }
static inline unsigned int cv4l2_cid_focus_auto(void) { return V4L2_CID_FOCUS_AUTO; }
static inline unsigned int cv4l2_cid_power_line_frequency(void) { return V4L2_CID_POWER_LINE_FREQUENCY; }
static inline unsigned int cv4l2_ctrl_flag_next_ctrl(void) { return V4L2_CTRL_FLAG_NEXT_CTRL; }
static inline unsigned int cv4l2_ctrl_flag_next_compound(void) { return V4L2_CTRL_FLAG_NEXT_COMPOUND; }
static inline unsigned int cv4l2_ctrl_flag_disabled(void) { return V4L2_CTRL_FLAG_DISABLED; }
static inline unsigned int cv4l2_ctrl_flag_read_only(void) { return V4L2_CTRL_FLAG_READ_ONLY; }
static inline unsigned int cv4l2_ctrl_flag_inactive(void) { return V4L2_CTRL_FLAG_INACTIVE; }
static inline unsigned int cv4l2_ctrl_id_mask(void) { return V4L2_CTRL_ID_MASK; }
static inline unsigned int cv4l2_ctrl_class_user(void) { return V4L2_CTRL_CLASS_USER; }
static inline unsigned int cv4l2_ctrl_class_camera(void) { return V4L2_CTRL_CLASS_CAMERA; }

// capability bits, buffer types and flags
static inline unsigned int cv4l2_cap_video_capture(void) { return V4L2_CAP_VIDEO_CAPTURE; }
static inline unsigned int cv4l2_cap_video_capture_mplane(void) { return V4L2_CAP_VIDEO_CAPTURE_MPLANE; }
static inline unsigned int cv4l2_cap_streaming(void) { return V4L2_CAP_STREAMING; }
static inline unsigned int cv4l2_cap_readwrite(void) { return V4L2_CAP_READWRITE; }
static inline unsigned int cv4l2_cap_device_caps(void) { return V4L2_CAP_DEVICE_CAPS; }
static inline unsigned int cv4l2_cap_meta_capture(void) { return V4L2_CAP_META_CAPTURE; }
static inline unsigned int cv4l2_buf_type_video_capture(void) { return V4L2_BUF_TYPE_VIDEO_CAPTURE; }
static inline unsigned int cv4l2_buf_type_video_output(void) { return V4L2_BUF_TYPE_VIDEO_OUTPUT; }
static inline unsigned int cv4l2_cap_video_output(void) { return V4L2_CAP_VIDEO_OUTPUT; }
static inline unsigned int cv4l2_memory_mmap(void) { return V4L2_MEMORY_MMAP; }
static inline unsigned int cv4l2_field_any(void) { return V4L2_FIELD_ANY; }
static inline unsigned int cv4l2_field_none(void) { return V4L2_FIELD_NONE; }
static inline unsigned int cv4l2_frmsize_type_discrete(void) { return V4L2_FRMSIZE_TYPE_DISCRETE; }
static inline unsigned int cv4l2_frmsize_type_continuous(void) { return V4L2_FRMSIZE_TYPE_CONTINUOUS; }
static inline unsigned int cv4l2_frmsize_type_stepwise(void) { return V4L2_FRMSIZE_TYPE_STEPWISE; }
static inline unsigned int cv4l2_frmival_type_discrete(void) { return V4L2_FRMIVAL_TYPE_DISCRETE; }
static inline unsigned int cv4l2_fmt_flag_compressed(void) { return V4L2_FMT_FLAG_COMPRESSED; }
static inline unsigned int cv4l2_buf_flag_error(void) { return V4L2_BUF_FLAG_ERROR; }
static inline unsigned int cv4l2_buf_flag_timestamp_mask(void) { return V4L2_BUF_FLAG_TIMESTAMP_MASK; }
static inline unsigned int cv4l2_buf_flag_timestamp_monotonic(void) { return V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC; }
static inline unsigned int cv4l2_cap_timeperframe(void) { return V4L2_CAP_TIMEPERFRAME; }
static inline unsigned int cv4l2_ctrl_type_menu(void) { return V4L2_CTRL_TYPE_MENU; }
static inline unsigned int cv4l2_ctrl_type_integer(void) { return V4L2_CTRL_TYPE_INTEGER; }
static inline unsigned int cv4l2_ctrl_type_boolean(void) { return V4L2_CTRL_TYPE_BOOLEAN; }
static inline unsigned int cv4l2_ctrl_type_integer_menu(void) { return V4L2_CTRL_TYPE_INTEGER_MENU; }

#endif

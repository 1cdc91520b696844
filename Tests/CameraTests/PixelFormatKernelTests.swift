import CV4L2
import Imaging
import Testing

/// `Imaging` writes the fourccs as characters, without the kernel's header: they must be
/// the kernel's `V4L2_PIX_FMT_*` codes, or negotiation would ask the driver for formats
/// that do not exist.
@Suite("Pixel formats against videodev2.h")
struct PixelFormatKernelTests {
    @Test func literalsAreTheKernelCodes() {
        #expect(PixelFormat.yuyv.rawValue == cv4l2_pix_fmt_yuyv())
        #expect(PixelFormat.uyvy.rawValue == cv4l2_pix_fmt_uyvy())
        #expect(PixelFormat.nv12.rawValue == cv4l2_pix_fmt_nv12())
        #expect(PixelFormat.i420.rawValue == cv4l2_pix_fmt_yuv420())
        #expect(PixelFormat.grey.rawValue == cv4l2_pix_fmt_grey())
        #expect(PixelFormat.rgb24.rawValue == cv4l2_pix_fmt_rgb24())
        #expect(PixelFormat.mjpeg.rawValue == cv4l2_pix_fmt_mjpeg())
        #expect(PixelFormat.jpeg.rawValue == cv4l2_pix_fmt_jpeg())
    }
}

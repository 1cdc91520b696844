"""Things that lie on the platen, in their own 3D coordinates (mm).

Local frame: x along the page's reading direction, y down the page, z away from the camera
when the thing lies face up. A pose (R, T) maps local to platen coordinates: P = R p + T.
"""

import math

import numpy as np

import camera as C
from camera import Quad


class FlatThing:
    """A card, a loose page or any flat object: one quad centred on the local origin."""

    def __init__(self, tex, thickness=0.6, doc=None):
        self.tex = tex
        self.w, self.h = tex.w_mm, tex.h_mm
        self.thickness = thickness
        self.doc = doc  # docs.DocImage for the labelled kind of thing

    def page_point(self, u, v):
        u, v = np.asarray(u, float), np.asarray(v, float)
        return np.stack([u - self.w / 2, v - self.h / 2, np.zeros_like(u)], -1)

    def page_size(self):
        return self.w, self.h

    def quads(self, R, T):
        loc = self.page_point([0, self.w, self.w, 0], [0, 0, self.h, self.h])
        return [Quad(self.tex, (0, 0, self.w, self.h), loc @ R.T + T)]

    def outline(self):
        return [self.page_point([0, self.w, self.w, 0], [0, 0, self.h, self.h])]

    def support_points(self):
        """Points of the thing's underside, which must stay above the platen."""
        p = self.page_point([0, self.w, self.w, 0], [0, 0, self.h, self.h])
        p[:, 2] += self.thickness
        return p


class Booklet:
    """An opened passport: the data page below the spine, the facing page above it, the
    cover's edge around both, the pages lifted and shaded near the spine."""

    def __init__(self, data_tex, facing_tex, cover_color, rng, doc=None):
        import docs
        self.data_tex, self.facing_tex = data_tex, facing_tex
        self.doc = doc
        self.cover_color = cover_color
        self.w, self.h = 125.0, 88.0
        self.A = rng.uniform(1.5, 7.0)        # height of the bulge near the spine (mm)
        self.b = rng.uniform(4.0, 11.0)       # distance of the bulge's crest from the spine
        self.Af = self.A * rng.uniform(0.7, 1.4)
        self.bf = self.b * rng.uniform(0.8, 1.3)
        self.t_low = rng.uniform(0.4, 2.5)    # pages under the data page
        self.t_up = rng.uniform(0.6, 4.0)     # pages under the facing page
        self.gutter = rng.uniform(0.6, 1.6)
        self.margin = rng.uniform(2.0, 4.0)   # cover shown around the pages
        self.light = rng.uniform(-0.35, 0.35)
        self._curves = {}
        self._tex_cache = {}
        self.yc = None
        self._prepare()
        m = self.margin
        self.cover_tex = docs.cover_texture(rng, cover_color, self.w + 2 * m, self.d_end + self.df_end + 2 * m)
        self.edge_tex = docs.paper_edge_texture(rng, self.w + 2, 80.0)

    # the page's cross-section: arc length s from the spine -> (d, lift)
    def _profile(self, A, b):
        d = np.linspace(0, 95, 1901)
        g = (d / b) * np.exp(1 - d / b)
        lift = A * g - self.gutter * np.exp(-d / 1.5)
        dl = np.gradient(lift, d)
        s = np.concatenate([[0], np.cumsum(np.sqrt(1 + dl[1:] ** 2) * np.diff(d))])
        return s, d, lift, dl

    def _prepare(self):
        for key, (A, b) in (("data", (self.A, self.b)), ("facing", (self.Af, self.bf))):
            self._curves[key] = self._profile(A, b)
        s, d, _, _ = self._curves["data"]
        self.d_end = float(np.interp(self.h, s, d))
        sf, df, _, _ = self._curves["facing"]
        self.df_end = float(np.interp(self.h, sf, df))
        self.yc = self.d_end / 2
        self.z_face = self.t_low - self.t_up  # flat level of the facing page (negative: higher)
        self.z_cover = max(self.t_low, self.t_up + self.z_face) + 0.3

    def curve(self, key, s):
        S, Dd, L, dL = self._curves[key]
        s = np.asarray(s, float)
        d = np.interp(s, S, Dd, right=np.nan)
        d = np.where(np.isnan(d), Dd[-1] + (s - S[-1]), d)
        lift = np.interp(s, S, L)
        return d, lift

    def page_point(self, u, v):
        """The data page's (u, v) in mm -> local 3D."""
        u, v = np.asarray(u, float), np.asarray(v, float)
        d, lift = self.curve("data", np.clip(v, 0, None))
        d = np.where(v < 0, v, d)
        return np.stack([u - self.w / 2, d - self.yc, -lift], -1)

    def facing_point(self, u, v):
        """The facing page's (u, v) (v = 0 at its outer edge, 88 at the spine) -> local 3D."""
        u, v = np.asarray(u, float), np.asarray(v, float)
        s = self.h - v
        d, lift = self.curve("facing", np.clip(s, 0, None))
        return np.stack([u - self.w / 2, -d - self.yc, self.z_face - lift], -1)

    def page_size(self):
        return self.w, self.h

    def shading(self, key, light):
        """Per-row brightness of a page from its slope and the gutter's occlusion."""
        S, Dd, L, dL = self._curves[key]
        rows = np.arange(0, self.h, 0.1)
        d = np.interp(rows, S, Dd)
        slope = np.interp(rows, S, dL)
        n = np.stack([-slope, np.ones_like(slope)], 1) / np.sqrt(1 + slope ** 2)[:, None]
        l = np.array([light, 1.0]) / math.hypot(light, 1.0)
        lam = np.clip(n @ l, 0, 1)
        occl = 1 - 0.45 * np.exp(-d / 2.5) - 0.15 * np.exp(-d / 9.0)
        return rows, (0.25 + 0.75 * lam) * occl

    def _shaded(self, key, tex):
        if key in self._tex_cache:
            return self._tex_cache[key]
        from docs import Texture
        arr, ppm = tex.levels[0]
        rows, sh = self.shading(key, self.light if key == "data" else -self.light)
        r = (np.arange(arr.shape[0]) + 0.5) / ppm
        if key == "facing":
            r = self.h - r
        f = np.interp(r, rows, sh).astype(np.float32)
        out = arr.copy()
        out[..., :3] = np.clip(arr[..., :3].astype(np.float32) * f[:, None, None], 0, 255).astype(np.uint8)
        t = Texture(out, tex.w_mm, tex.h_mm)
        self._tex_cache[key] = t
        return t

    def _strips(self):
        sc = min(5.0 * max(self.b, self.bf), 60.0)
        n = 9
        s = [sc * (k / n) ** 1.5 for k in range(n + 1)] + [self.h]
        return s

    def quads(self, R, T):
        out = []
        m = self.margin
        w = self.w
        # cover (flat, on the platen)
        y_top = -self.df_end - self.yc - m
        y_bot = self.d_end - self.yc + m
        cov = np.array([[-w / 2 - m, y_top, self.z_cover], [w / 2 + m, y_top, self.z_cover],
                        [w / 2 + m, y_bot, self.z_cover], [-w / 2 - m, y_bot, self.z_cover]])
        out.append(Quad(self.cover_tex, (0, 0, self.cover_tex.w_mm, self.cover_tex.h_mm), cov @ R.T + T))
        # page block edges under each page (flat, slightly larger)
        e = 0.7
        for y0, y1, z in ((-self.df_end - self.yc - e, -self.yc - 14, (self.z_face + self.z_cover) / 2),
                          (-self.yc + 14, self.d_end - self.yc + e, (self.z_cover) / 2)):
            q = np.array([[-w / 2 - e, y0, z], [w / 2 + e, y0, z], [w / 2 + e, y1, z], [-w / 2 - e, y1, z]])
            out.append(Quad(self.edge_tex, (0, 0, self.edge_tex.w_mm, self.edge_tex.h_mm), q @ R.T + T))
        ftex = self._shaded("facing", self.facing_tex)
        dtex = self._shaded("data", self.data_tex)
        s = self._strips()
        # facing page strips: v from 88 - s
        for i in range(len(s) - 1):
            va, vb = self.h - s[i + 1], self.h - s[i]
            p = self.facing_point([0, w, w, 0], [va, va, vb, vb])
            out.append(Quad(ftex, (0, va, w, vb), p @ R.T + T, clip=i < len(s) - 2))
        for i in range(len(s) - 1):
            va, vb = s[i], s[i + 1]
            p = self.page_point([0, w, w, 0], [va, va, vb, vb])
            out.append(Quad(dtex, (0, va, w, vb), p @ R.T + T, clip=i < len(s) - 2))
        return out

    def outline(self):
        m = self.margin
        w = self.w
        y_top = -self.df_end - self.yc - m
        y_bot = self.d_end - self.yc + m
        return [np.array([[-w / 2 - m, y_top, self.z_cover], [w / 2 + m, y_top, self.z_cover],
                          [w / 2 + m, y_bot, self.z_cover], [-w / 2 - m, y_bot, self.z_cover]])]

    def support_points(self):
        p = self.outline()[0].copy()
        p[:, 2] += 0.6
        return p


def pose(thing, rot_deg, tilt_deg, tilt_axis_deg, cx, cy, lift_mm):
    """Rotation in the platen plane, then a tilt about an in-plane axis; the lowest point of the
    thing rests lift_mm above the platen."""
    a = math.radians(tilt_axis_deg)
    R = C.rot_axis([math.cos(a), math.sin(a), 0.0], math.radians(tilt_deg)) @ C.rot_z(math.radians(rot_deg))
    sp = thing.support_points() @ R.T
    tz = -lift_mm - sp[:, 2].max()
    return R, np.array([cx, cy, tz])


def world(R, T, local):
    return np.asarray(local) @ R.T + T

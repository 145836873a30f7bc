#!/usr/bin/env python3
"""Procedural cover / intro artwork for Candor's sample surveys.

Original work made for the Candor project. Everything is drawn from code:
gradients, soft geometric / organic shapes and a little grain. No text,
no people, no photographs, nothing downloaded.

Usage: python3 make-images.py OUT_DIR
Writes OUT_DIR/covers/<slug>.ppm (960x600) and OUT_DIR/intro/<slug>.ppm
(960x540); make-media.sh turns them into WebP with cwebp.
       python3 make-images.py OUT_DIR --video-bg
writes OUT_DIR/bg-{1,2,3}.ppm (760x760), the backdrops of the question videos.
Needs numpy. Deterministic (fixed seeds).
"""
import math
import os
import sys

import numpy as np

INK = "#14131a"
VIOLET = "#5b3df5"
CORAL = "#ff6b5b"
TEAL = "#14b8a6"
AMBER = "#f5a524"
PAPER = "#f7f2ea"


def rgb(h):
    h = h.lstrip("#")
    return np.array([int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4)])


def mix(a, b, t):
    return rgb(a) * (1 - t) + rgb(b) * t if isinstance(a, str) else a * (1 - t) + b * t


def smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


class Canvas:
    def __init__(self, w, h, seed):
        self.w, self.h = w, h
        self.rng = np.random.default_rng(seed)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
        self.x, self.y = xs + 0.5, ys + 0.5
        self.img = np.zeros((h, w, 3))

    # --- coordinates: positions as fractions of width/height, sizes as fractions of width
    def px(self, fx, fy):
        return fx * self.w, fy * self.h

    # --- fills
    def gradient(self, stops, angle_deg=90.0):
        """Linear gradient. stops: list of (t, colour). angle 90 = top->bottom."""
        a = math.radians(angle_deg)
        dx, dy = math.cos(a), math.sin(a)
        proj = (self.x - self.w / 2) * dx + (self.y - self.h / 2) * dy
        half = abs(self.w / 2 * dx) + abs(self.h / 2 * dy)
        t = (proj / half + 1) / 2
        ts = [s[0] for s in stops]
        for c in range(3):
            self.img[..., c] = np.interp(t, ts, [rgb(s[1])[c] for s in stops])

    def paint(self, alpha, colour, mode="over"):
        """Blend a colour (or an HxWx3 array) through an alpha mask."""
        col = rgb(colour) if isinstance(colour, str) else colour
        a = np.clip(alpha, 0, 1)[..., None]
        if mode == "over":
            self.img = self.img * (1 - a) + col * a
        elif mode == "screen":
            self.img = 1 - (1 - self.img) * (1 - col * a)
        elif mode == "add":
            self.img = self.img + col * a
        elif mode == "multiply":
            self.img = self.img * (1 - a + col * a)

    def glow(self, fx, fy, fr, colour, strength=1.0, mode="screen", squash=1.0):
        cx, cy = self.px(fx, fy)
        d2 = ((self.x - cx) ** 2 + ((self.y - cy) / squash) ** 2) / (fr * self.w) ** 2
        self.paint(strength * np.exp(-d2 * 2.2), colour, mode)

    def value_noise(self, cells, seed_shift=0):
        """Smooth low-frequency noise in [0,1] (bicubic-ish value noise)."""
        rng = np.random.default_rng(self.rng.integers(1 << 30) + seed_shift)
        gw, gh = cells + 3, int(cells * self.h / self.w) + 3
        grid = rng.random((gh, gw))
        gx = self.x / self.w * cells
        gy = self.y / self.w * cells
        x0, y0 = np.floor(gx).astype(int), np.floor(gy).astype(int)
        tx, ty = smoothstep(0, 1, gx - x0), smoothstep(0, 1, gy - y0)
        g = lambda yy, xx: grid[yy, xx]
        top = g(y0, x0) * (1 - tx) + g(y0, x0 + 1) * tx
        bot = g(y0 + 1, x0) * (1 - tx) + g(y0 + 1, x0 + 1) * tx
        return top * (1 - ty) + bot * ty

    # --- signed distance helpers (pixels)
    def d_circle(self, fx, fy, fr):
        cx, cy = self.px(fx, fy)
        return np.hypot(self.x - cx, self.y - cy) - fr * self.w

    def d_ellipse(self, cx, cy, rx, ry):
        """Approximate signed distance to an axis-aligned ellipse (pixel units)."""
        nx, ny = (self.x - cx) / rx, (self.y - cy) / ry
        k = np.hypot(nx, ny)
        grad = np.hypot(nx / rx, ny / ry) + 1e-9
        return (k * k - 1) / (2 * grad * np.maximum(k, 1e-6)) * 1.0

    def d_polyline(self, pts, reach=48.0):
        """Unsigned distance to a polyline (pixel coords); exact within `reach` px, large beyond."""
        pts = np.asarray(pts, dtype=np.float64)
        d = np.full((self.h, self.w), 1e9)
        for (ax, ay), (bx, by) in zip(pts[:-1], pts[1:]):
            x0 = max(int(min(ax, bx) - reach), 0)
            x1 = min(int(max(ax, bx) + reach) + 1, self.w)
            y0 = max(int(min(ay, by) - reach), 0)
            y1 = min(int(max(ay, by) + reach) + 1, self.h)
            if x0 >= x1 or y0 >= y1:
                continue
            X, Y = self.x[y0:y1, x0:x1], self.y[y0:y1, x0:x1]
            vx, vy = bx - ax, by - ay
            l2 = vx * vx + vy * vy + 1e-12
            t = np.clip(((X - ax) * vx + (Y - ay) * vy) / l2, 0, 1)
            sub = d[y0:y1, x0:x1]
            np.minimum(sub, np.hypot(X - ax - t * vx, Y - ay - t * vy), out=sub)
        return d

    def d_polygon(self, pts):
        """Signed distance to a closed polygon (negative inside), pixel coords."""
        pts = np.asarray(pts, dtype=np.float64)
        closed = np.vstack([pts, pts[:1]])
        d = self.d_polyline(closed)
        inside = np.zeros((self.h, self.w), dtype=bool)
        for (ax, ay), (bx, by) in zip(closed[:-1], closed[1:]):
            cond = (ay > self.y) != (by > self.y)
            xint = (bx - ax) * (self.y - ay) / (by - ay + 1e-12) + ax
            inside ^= cond & (self.x < xint)
        return np.where(inside, -d, d)

    @staticmethod
    def fill(d, soft=1.0):
        """Antialiased coverage from a signed distance."""
        return np.clip(0.5 - d / soft, 0, 1)

    @staticmethod
    def stroke(d, width, soft=1.0):
        return np.clip(0.5 - (np.abs(d) - width / 2) / soft, 0, 1)

    def blur(self, arr, radius):
        """Approximate gaussian blur of a 2D array (three box passes)."""
        r = max(1, int(radius))
        out = arr
        for _ in range(3):
            for axis in (0, 1):
                pad = [(0, 0), (0, 0)]
                pad[axis] = (r + 1, r)
                p = np.pad(out, pad, mode="edge")
                c = np.cumsum(p, axis=axis)
                if axis == 0:
                    out = (c[2 * r + 1:, :] - c[:-2 * r - 1, :]) / (2 * r + 1)
                else:
                    out = (c[:, 2 * r + 1:] - c[:, :-2 * r - 1]) / (2 * r + 1)
        return out

    # --- finishing
    def finish(self, scrim=0.62, vignette=0.35, grain=0.012, texture=0.05):
        h = self.h
        # gentle large-scale tonal variation so flats are not dead
        n = self.value_noise(5)
        self.img *= (1 + texture * (n - 0.5) * 2)[..., None]
        # vignette
        cx, cy = self.w / 2, self.h * 0.45
        r = np.hypot((self.x - cx) / self.w, (self.y - cy) / self.h)
        self.paint(vignette * smoothstep(0.25, 0.8, r), INK, "over")
        # lower-third scrim for white text legibility
        t = smoothstep(h * 0.52, h * 1.0, self.y)
        self.paint(scrim * t, INK, "over")
        # fine grain, also acts as dither against banding
        g = self.rng.normal(0, grain, (self.h, self.w, 1))
        self.img = self.img + g

    def save_ppm(self, path):
        out = np.clip(self.img * 255 + 0.5, 0, 255).astype(np.uint8)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (self.w, self.h))
            f.write(out.tobytes())


# ---------------------------------------------------------------- compositions
def time_travel(c, intro):
    cx, cy = (0.30, 0.42) if intro else (0.64, 0.38)
    c.gradient([(0, "#241a5c"), (0.55, "#17142e"), (1, INK)], 115 if intro else 65)
    c.glow(cx, cy, 0.42, VIOLET, 0.85)
    c.glow(cx, cy, 0.12, "#b9a8ff", 0.35)
    X, Y = c.px(cx, cy)
    dist = np.hypot(c.x - X, c.y - Y)
    ang = np.arctan2(c.y - Y, c.x - X)
    # concentric rings, spaced geometrically like ripples
    r = 0.035 * c.w
    i = 0
    while r < 1.1 * c.w:
        a = 0.55 * math.exp(-i * 0.16)
        c.paint(a * c.stroke(dist - r, 1.3), "#d9d0ff", "over")
        r *= 1.28
        i += 1
    # an amber arc on one ring ("a moment")
    rr = 0.035 * c.w * 1.28 ** 4
    arc = smoothstep(0.0, 0.25, np.cos(ang - (2.4 if intro else -0.9)) - 0.55)
    c.paint(arc * c.stroke(dist - rr, 3.2), AMBER)
    c.paint(0.5 * arc * c.blur(c.stroke(dist - rr, 6.0), 6), AMBER, "screen")
    # a spiral path unwinding outwards
    pts = []
    sgn = -1 if intro else 1
    for k in range(0, 1400):
        th = k * 0.03
        rad = 0.012 * c.w * math.exp(0.17 * th)
        if rad > 0.75 * c.w:
            break
        pts.append((X + sgn * rad * math.cos(th + 1.0), Y + rad * math.sin(th + 1.0)))
    d = c.d_polyline(pts)
    fade = smoothstep(0.62 * c.w, 0.25 * c.w, dist)
    c.paint(0.8 * fade * c.stroke(d, 1.8), "#ffcf7a")
    # traveller dots
    for fr, col in ((0.0, "#fff3d6"),):
        c.paint(c.fill(dist - 0.008 * c.w), col)
    ex, ey = pts[560]
    dd = np.hypot(c.x - ex, c.y - ey)
    c.paint(c.fill(dd - 0.007 * c.w), TEAL)
    c.paint(0.6 * np.exp(-(dd / (0.03 * c.w)) ** 2), TEAL, "screen")
    c.finish()


def consent(c, intro):
    c.gradient([(0, "#3a2236"), (0.6, "#231a2b"), (1, INK)], 100)
    if intro:
        a_col, b_col, mid = VIOLET, CORAL, "#ffd6c8"
        ca, cb, rad = (0.415, 0.41), (0.585, 0.41), 0.165
    else:
        a_col, b_col, mid = CORAL, TEAL, "#fff1dc"
        ca, cb, rad = (0.415, 0.39), (0.585, 0.39), 0.175
    c.glow(0.5, 0.4, 0.45, "#6b3a5e", 0.6)
    da = c.d_circle(ca[0], ca[1], rad)
    db = c.d_circle(cb[0], cb[1], rad)
    # soft shadows
    sh = c.blur(c.fill(np.minimum(da, db) - 0.0, 1.0), 18)
    sh = np.roll(sh, 14, axis=0)
    c.paint(0.45 * sh, "#0b0a10", "over")
    for d, col, (fx, fy) in ((da, a_col, ca), (db, b_col, cb)):
        # inner shading: lighter towards the top
        X, Y = c.px(fx, fy)
        shade = np.clip((c.y - (Y - rad * c.w)) / (2 * rad * c.w), 0, 1)
        fillcol = mix(rgb(col) * 1.08, rgb(col) * 0.72, shade[..., None])
        c.paint(0.92 * c.fill(d, 1.2), np.clip(fillcol, 0, 1))
    both = np.minimum(c.fill(da, 1.2), c.fill(db, 1.2))
    X, Y = c.px(0.5, ca[1])
    shade = np.clip((c.y - (Y - rad * c.w)) / (2 * rad * c.w), 0, 1)[..., None]
    c.paint(0.95 * both, np.clip(mix(rgb(mid), rgb(mid) * 0.82, shade), 0, 1))
    # hairline rims
    c.paint(0.35 * c.stroke(da, 1.2), "#ffffff")
    c.paint(0.35 * c.stroke(db, 1.2), "#ffffff")
    c.glow(0.5, ca[1], 0.10, mid, 0.25)
    c.finish()


def money(c, intro):
    c.gradient([(0, "#0f4a45"), (0.55, "#0f2a2c"), (1, INK)], 80)
    c.glow(0.75, 0.2, 0.35, TEAL, 0.35)
    # bokeh
    for k in range(7):
        fx, fy = c.rng.uniform(0.05, 0.95), c.rng.uniform(0.05, 0.5)
        rr = c.rng.uniform(0.02, 0.055)
        d = c.d_circle(fx, fy, rr)
        c.paint(0.06 * c.fill(d, 10) + 0.04 * c.stroke(d + 3, 3, 4), "#7fe0d3", "screen")

    def coin_stack(fx, base_fy, n, rx):
        X = fx * c.w
        ry = rx * 0.32
        thick = rx * 0.17
        Y0 = base_fy * c.h
        # contact shadow on the surface
        sh = np.exp(-(((c.x - X - rx * 0.15) / (rx * 1.25)) ** 2 + ((c.y - Y0 - thick * 0.2) / (ry * 1.3)) ** 2) * 2)
        c.paint(0.55 * sh, "#03100f")
        sx = (c.x - X) / rx
        side_shade = np.clip(0.62 + 0.5 * (1 - (sx + 0.35) ** 2), 0.45, 1.12)[..., None]
        for k in range(n):
            jitter = c.rng.uniform(-2.0, 2.0)
            cy = Y0 - k * thick
            side = np.minimum(c.d_ellipse(X + jitter, cy, rx, ry),
                              np.maximum(np.abs(c.x - X - jitter) - rx, np.abs(c.y - (cy - thick / 2)) - thick / 2))
            reed = 0.93 + 0.07 * np.cos(c.x * 1.3)
            sidecol = np.clip(rgb("#b8731c") * side_shade * reed[..., None], 0, 1)
            c.paint(c.fill(side, 1.0), sidecol)
            c.paint(0.35 * c.stroke(c.d_ellipse(X + jitter, cy, rx, ry), 1.0) * (c.y > cy), "#5a3308")
            top = c.d_ellipse(X + jitter, cy - thick, rx, ry)
            tx = (c.x - X) / rx + (c.y - (cy - thick)) / ry * 0.6
            topcol = mix(rgb("#ffd27a"), rgb("#e39a32"), smoothstep(-1.2, 0.8, tx)[..., None])
            c.paint(c.fill(top, 1.0), topcol)
            c.paint(0.55 * c.stroke(c.d_ellipse(X + jitter, cy - thick, rx * 0.82, ry * 0.82), 1.2), "#c98421")
            c.paint(0.6 * c.stroke(top, 1.0) * (c.y < cy - thick), "#ffe3a6")
        return Y0 - n * thick

    if intro:
        # a diagonal cascade of large overlapping coins
        for i in range(6):
            fx = 0.16 + i * 0.14
            fy = 0.54 - i * 0.07
            r = 0.075 + i * 0.006
            d = c.d_circle(fx, fy, r)
            sh = c.blur(c.fill(d + 0, 1), 10)
            c.paint(0.45 * np.roll(sh, 10, axis=0), "#051513")
            X, Y = c.px(fx, fy)
            shade = np.clip((c.y - (Y - r * c.w)) / (2 * r * c.w), 0, 1)[..., None]
            col = mix(rgb("#ffc766"), rgb("#c7801f"), shade)
            c.paint(c.fill(d, 1.2), col)
            c.paint(0.7 * c.stroke(d + 0.014 * c.w, 1.6), "#fff0c8")
            c.paint(0.35 * c.stroke(d + 0.03 * c.w, 1.0), "#8a5312")
    else:
        heights = [2, 4, 6, 9, 12]
        for i, n in enumerate(heights):
            top = coin_stack(0.25 + i * 0.125, 0.62, n, 0.05 * c.w)
        c.glow(0.76, 0.30, 0.12, AMBER, 0.25)
    c.finish()


def sex(c, intro):
    c.gradient([(0, "#4a1840"), (0.5, "#2a1338"), (1, INK)], 70)
    c.glow(0.3 if not intro else 0.7, 0.3, 0.4, "#8a2f6a", 0.55)
    if intro:
        # a field of fine flowing lines, like folds of silk, drawn together at one point
        u, v = c.x / c.w, c.y / c.h
        pinch = np.exp(-((u - 0.52) / 0.22) ** 2)
        wave = (0.09 * np.sin(u * 2 * math.pi * 0.9 + 0.6) + 0.05 * np.sin(u * 2 * math.pi * 2.1 + 1.7))
        # line index field: lines spread out at the edges and gather near the pinch
        field = (v - 0.40 - wave) / (0.30 * (1 - 0.72 * pinch)) * 16
        dfield = np.hypot(*np.gradient(field)) + 1e-6
        dist = np.abs(field - np.round(field)) / dfield
        band = smoothstep(9.5, 6.0, np.abs(field))
        lines = c.fill(dist - 0.7, 1.0) * band
        col = mix(rgb(CORAL), rgb("#9a7bff"), smoothstep(0.2, 0.8, u)[..., None])
        c.glow(0.52, 0.40, 0.22, "#ff8a7a", 0.35)
        c.paint(0.85 * lines, np.clip(col * 1.1, 0, 1))
        c.paint(0.25 * c.blur(lines, 5), "#ffb3a6", "screen")
    else:
        # two silk ribbons that wind around each other
        u = c.x / c.w
        for phase, col, amp, w0, z in ((0.0, VIOLET, 0.11, 0.055, 0), (math.pi, CORAL, 0.10, 0.06, 1)):
            yc = (0.40 + amp * np.sin(u * 2 * math.pi * 1.1 + phase)
                  + 0.03 * np.sin(u * 2 * math.pi * 2.3 + phase * 0.5)) * c.h
            dy = np.gradient(yc, axis=1)
            width = (w0 + 0.03 * np.sin(u * math.pi * 3 + phase)) * c.w
            d = (c.y - yc) / np.sqrt(1 + dy ** 2)
            t = d / width  # -1..1 across
            cover = c.fill(np.abs(d) - width, 1.3)
            sheen = 0.5 + 0.5 * np.cos(t * 3.0 + u * 9 + phase)
            base = rgb(col)
            lo = base * (0.78 if z else 0.55)
            ribbon = mix(lo, np.minimum(base * 1.25 + 0.12, 1), sheen[..., None] ** 2)
            sh = c.blur(cover, 14)
            c.paint(0.35 * np.roll(sh, 12, axis=0), "#0b0610")
            c.paint(0.94 * cover, np.clip(ribbon, 0, 1))
        c.glow(0.5, 0.4, 0.2, "#ffb3a6", 0.15)
    c.finish()


def taboos(c, intro):
    c.gradient([(0, "#221c3f"), (0.6, "#17152a"), (1, INK)], 90)
    if intro:
        # a quiet grid of dots; one is lit
        cols, rows = 15, 7
        lit = (10, 2)
        for j in range(rows):
            for i in range(cols):
                fx = 0.1 + i * 0.8 / (cols - 1)
                fy = 0.12 + j * 0.52 / (rows - 1)
                if (i, j) == lit:
                    c.glow(fx, fy, 0.12, CORAL, 0.55)
                    c.paint(c.fill(c.d_circle(fx, fy, 0.017), 1.2), "#ff8a7a")
                    c.paint(0.6 * c.stroke(c.d_circle(fx, fy, 0.032), 1.4), CORAL)
                else:
                    c.paint(0.32 * c.fill(c.d_circle(fx, fy, 0.006), 1.2), "#c9c2ea")
    else:
        # a warm light behind closed blinds; one slat is tilted open
        lx, ly = 0.60, 0.34
        c.glow(lx, ly, 0.40, AMBER, 1.0)
        c.glow(lx, ly, 0.22, "#ffb347", 0.6)
        c.glow(lx, ly, 0.14, "#ffe2a8", 0.8)
        c.paint(c.fill(c.d_circle(lx, ly, 0.12), 1.5), "#ffd27a")
        light = np.clip(c.img.mean(axis=2), 0, 1)
        slat_h = 0.046 * c.w
        gap = 0.011 * c.w
        ys = -0.3 * slat_h
        i = 0
        while ys < c.h:
            ajar = i == 4
            tilt = -0.06 if ajar else 0.0
            cy = ys + slat_h / 2
            ry = (c.y - cy) * math.cos(tilt) - (c.x - c.w * 0.5) * math.sin(tilt)
            d = np.abs(ry) - slat_h * (0.8 if ajar else 1.0) / 2
            t = np.clip((ry + slat_h / 2) / slat_h, 0, 1)  # 0 top .. 1 bottom of the slat
            base = rgb("#1d1a33") * (1.15 - 0.35 * t)[..., None]
            c.paint(c.fill(d, 1.0), base)
            # lower edge of each slat catches the light behind
            edge = c.stroke(ry - slat_h * (0.8 if ajar else 1.0) / 2 + 1.0, 1.2)
            c.paint(0.55 * edge * light, "#ffc870", "screen")
            ys += slat_h + gap
            i += 1
    c.finish()


def life_and_death(c, intro):
    hz = 0.60
    if intro:
        c.gradient([(0, "#1c1a4a"), (0.45, "#3b2c6e"), (hz, "#c46a6a"), (hz + 0.001, "#1a1726"), (1, INK)], 90)
        c.glow(0.72, hz, 0.22, CORAL, 0.55, squash=0.6)
        # a moon, half-set
        d = c.d_circle(0.72, hz, 0.07)
        c.paint(c.fill(d, 1.2) * (c.y < hz * c.h), "#ffd9c4")
        # lifespan arc of small dots rising and falling across the sky
        for k in range(27):
            t = k / 26
            fx = 0.10 + 0.80 * t
            fy = hz - 0.40 * math.sin(math.pi * t) * (1 - 0.25 * t)
            r = 0.003 + 0.004 * math.sin(math.pi * t)
            c.paint(0.85 * c.fill(c.d_circle(fx, fy, r), 1.1), "#f3eefe")
        c.paint(0.7 * c.fill(c.d_circle(0.10 + 0.8 * 0.46, hz - 0.40 * math.sin(math.pi * 0.46) * (1 - 0.115), 0.011), 1.1), TEAL)
        c.glow(0.10 + 0.8 * 0.46, hz - 0.40 * math.sin(math.pi * 0.46) * (1 - 0.115), 0.04, TEAL, 0.5)
    else:
        c.gradient([(0, "#0d3640"), (0.38, "#1f5a5c"), (hz, "#e8a25a"), (hz + 0.001, "#1b1a22"), (1, INK)], 90)
        c.glow(0.30, hz, 0.30, AMBER, 0.6, squash=0.55)
        d = c.d_circle(0.30, hz, 0.075)
        c.paint(c.fill(d, 1.2) * (c.y < hz * c.h), "#ffe7b8")
        # reflection shimmer on the ground
        rows = np.convolve(c.rng.random(c.h + 8), np.ones(5) / 5, mode="same")[4:-4]
        streak = smoothstep(0.45, 0.62, rows[c.y.astype(int)]) * (0.6 + 0.4 * c.value_noise(6))
        refl = (c.y > hz * c.h) * np.exp(-((c.x - 0.30 * c.w) / (0.09 * c.w)) ** 2) * np.exp(-(c.y - hz * c.h) / (0.10 * c.h))
        c.paint(0.55 * refl * streak, "#ffcf8a", "screen")
        # a single sprouting stem with a leaf, rising from the horizon
        bx, by = 0.66 * c.w, hz * c.h
        pts = []
        for k in range(120):
            t = k / 119
            pts.append((bx + 0.05 * c.w * math.sin(t * 2.2) * t, by - t * 0.36 * c.h))
        c.paint(0.95 * c.stroke(c.d_polyline(pts), 2.6, 1.2), "#e9f7f2")
        # leaf: lens shape from two circles
        tx, ty = pts[70]
        lx, ly = tx + 0.045 * c.w, ty - 0.01 * c.h
        ang = -0.5
        ux, uy = (c.x - (tx + lx) / 2), (c.y - (ty + ly) / 2)
        rx = ux * math.cos(ang) + uy * math.sin(ang)
        ry = -ux * math.sin(ang) + uy * math.cos(ang)
        L = 0.05 * c.w
        R = L * 1.1
        off = math.sqrt(R * R - (L / 2) ** 2)
        d1 = np.hypot(rx, ry - off) - R
        d2 = np.hypot(rx, ry + off) - R
        leaf = c.fill(np.maximum(d1, d2), 1.2)
        c.paint(leaf, TEAL)
        c.paint(0.6 * c.stroke(ry + 0 * rx, 1.0) * leaf, "#bff3ea")
        # bud at the tip
        ex, ey = pts[-1]
        c.paint(c.fill(np.hypot(c.x - ex, c.y - ey) - 0.008 * c.w, 1.2), CORAL)
        c.paint(0.5 * np.exp(-(np.hypot(c.x - ex, c.y - ey) / (0.03 * c.w)) ** 2), CORAL, "screen")
    # horizon hairline
    c.paint(0.5 * c.stroke(c.y - hz * c.h, 1.0), "#fff4e0")
    c.finish(scrim=0.45)


def crime(c, intro):
    c.gradient([(0, "#141a36"), (0.6, "#121426"), (1, INK)], 90)
    if intro:
        # abstract fingerprint: warped concentric loops
        X, Y = c.px(0.66, 0.42)
        n = c.value_noise(4)
        ux, uy = (c.x - X) / c.w, (c.y - Y) / c.w
        r0 = np.hypot(ux * 1.0, uy * 0.78)
        r = r0 + (0.012 * np.sin(np.arctan2(uy, ux) * 2) + 0.02 * (n - 0.5)) * smoothstep(0.02, 0.12, r0)
        lines = 0.5 + 0.5 * np.cos(r * 2 * math.pi * 38)
        mask = smoothstep(0.36, 0.22, r) * smoothstep(0.95, 0.55, c.y / c.h)
        ridge = smoothstep(0.82, 0.95, lines) * mask
        c.glow(0.66, 0.42, 0.35, "#1b4f6b", 0.5)
        c.paint(0.55 * ridge, "#7fd8cc")
        # one highlighted ridge segment
        ang = np.arctan2(uy, ux)
        seg = smoothstep(0.82, 0.95, lines) * (np.abs(r - 0.16) < 0.008) * smoothstep(0.3, 0.6, np.cos(ang + 2.2))
        c.paint(seg, CORAL)
        c.paint(0.5 * c.blur(seg, 6), CORAL, "screen")
    else:
        # a diagonal beam of light across the dark, shards caught in it
        ax, ay = -0.05 * c.w, -0.1 * c.h
        dirx, diry = math.cos(0.62), math.sin(0.62)
        along = (c.x - ax) * dirx + (c.y - ay) * diry
        perp = -(c.x - ax) * diry + (c.y - ay) * dirx
        spread = 0.05 * c.w + along * 0.28
        beam = smoothstep(1.0, 0.2, np.abs(perp) / spread) * smoothstep(1.3 * c.w, 0.1 * c.w, along)
        c.paint(0.55 * beam, "#9aa6d8", "screen")
        shards = [
            ([(0.44, 0.30), (0.56, 0.22), (0.52, 0.42)], CORAL),
            ([(0.58, 0.40), (0.70, 0.33), (0.64, 0.56)], VIOLET),
            ([(0.34, 0.18), (0.40, 0.12), (0.39, 0.26)], "#ff9a8a"),
            ([(0.72, 0.50), (0.80, 0.46), (0.77, 0.60)], TEAL),
            ([(0.50, 0.48), (0.55, 0.46), (0.53, 0.55)], AMBER),
        ]
        for pts, col in shards:
            P = [(fx * c.w, fy * c.h) for fx, fy in pts]
            d = c.d_polygon(P)
            sh = c.blur(c.fill(d, 1), 8)
            c.paint(0.5 * np.roll(np.roll(sh, 10, axis=0), 6, axis=1), "#07080f")
            # facet shading: lighter along the beam
            lit = smoothstep(-1, 1, np.cos(np.arctan2(c.y - P[0][1], c.x - P[0][0]) - 0.3))
            colarr = mix(rgb(col) * 0.7, np.minimum(rgb(col) * 1.2, 1), lit[..., None])
            c.paint(0.95 * c.fill(d, 1.1), colarr)
            c.paint(0.45 * c.stroke(d, 1.0), "#ffffff")
        # a faint dashed line, like a boundary
        dash = (np.mod(c.x + c.y * 0.3, 26) < 14) * c.stroke(c.y - (0.64 * c.h + (c.x - 0.5 * c.w) * -0.05), 1.4)
        c.paint(0.35 * dash, "#c9c2ea")
    c.finish()


SLUGS = {
    "time-travel": time_travel,
    "consent": consent,
    "money": money,
    "sex": sex,
    "taboos": taboos,
    "life-and-death": life_and_death,
    "crime": crime,
}


def video_bg(c, idx):
    """Square backdrop for the time-travel question videos; ffmpeg rotates it slowly."""
    glow, line, dot = [(VIOLET, "#ffcf7a", TEAL), ("#c2456e", "#7fe0d3", AMBER), (TEAL, "#ffcf7a", CORAL)][idx]
    c.gradient([(0, "#17142e"), (1, "#17142e")], 90)
    c.glow(0.5, 0.5, 0.40, glow, 0.75)
    c.glow(0.5, 0.5, 0.10, "#ffffff", 0.10)
    X, Y = c.px(0.5, 0.5)
    dist = np.hypot(c.x - X, c.y - Y)
    ang = np.arctan2(c.y - Y, c.x - X)
    r, i = 0.03 * c.w, 0
    while r < 0.75 * c.w:
        c.paint(0.45 * math.exp(-i * 0.14) * c.stroke(dist - r, 1.3), "#d9d0ff")
        r *= 1.25
        i += 1
    for arm in range(2):
        pts = []
        for k in range(900):
            th = k * 0.03
            rad = 0.01 * c.w * math.exp(0.17 * th)
            if rad > 0.8 * c.w:
                break
            a = th + arm * math.pi + idx
            pts.append((X + rad * math.cos(a), Y + rad * math.sin(a)))
        fade = smoothstep(0.55 * c.w, 0.15 * c.w, dist)
        c.paint((0.75 if arm == 0 else 0.3) * fade * c.stroke(c.d_polyline(pts), 1.6), line)
    ex, ey = X + 0.23 * c.w * math.cos(idx * 2.1), Y + 0.23 * c.w * math.sin(idx * 2.1)
    dd = np.hypot(c.x - ex, c.y - ey)
    c.paint(c.fill(dd - 0.008 * c.w), dot)
    c.paint(0.6 * np.exp(-(dd / (0.03 * c.w)) ** 2), dot, "screen")
    # keep the centre, where the question sits, calm
    c.paint(0.35 * np.exp(-(dist / (0.28 * c.w)) ** 2), INK)
    c.finish(scrim=0.0, vignette=0.0, grain=0.006, texture=0.03)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    if sys.argv[2:3] == ["--video-bg"]:
        for idx in range(3):
            c = Canvas(760, 760, seed=2000 + idx)
            video_bg(c, idx)
            c.save_ppm(os.path.join(out, "bg-%d.ppm" % (idx + 1)))
        return
    only = sys.argv[2:] or list(SLUGS)
    for i, slug in enumerate(SLUGS):
        if slug not in only:
            continue
        for kind, (w, h), intro in (("covers", (960, 600), False), ("intro", (960, 540), True)):
            c = Canvas(w, h, seed=1000 + i * 10 + intro)
            SLUGS[slug](c, intro)
            c.save_ppm(os.path.join(out, kind, slug + ".ppm"))
            print(kind, slug)


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Regenerates every sample asset in apps/web/public/sample/:
#   covers/<slug>.webp   960x600 card backgrounds
#   intro/<slug>.webp    960x540 survey intro images
#   video/time-travel-N.mp4 + .vtt   the three 'time-travel' video questions
# All of it is original work made for the Candor project, drawn / spoken by
# code on this machine; nothing is downloaded.
#
# Needs (Debian packages): python3 with numpy, webp (cwebp), ffmpeg (with
# libx264), espeak-ng, fonts-liberation (falls back to fonts-dejavu-core).
#   apt-get install -y python3-numpy webp ffmpeg espeak-ng fonts-liberation
# Usage: bash make-media.sh            (everything)
#        bash make-media.sh images     (only the WebP images)
#        bash make-media.sh video      (only the videos and captions)
#        WEBM=1 bash make-media.sh video   (also VP9/Opus .webm copies)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$HERE/../../apps/web/public/sample"
cd "$OUT"
WHAT=${1:-all}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for tool in python3 cwebp ffmpeg espeak-ng; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
done

SLUGS="time-travel consent money sex taboos life-and-death crime"

# ---------------------------------------------------------------- images
if [ "$WHAT" = all ] || [ "$WHAT" = images ]; then
  python3 "$HERE/make-images.py" "$TMP/img" >/dev/null
  for kind in covers intro; do
    mkdir -p "$kind"
    for slug in $SLUGS; do
      q=78
      while :; do
        cwebp -quiet -q "$q" -m 6 -sharp_yuv -af -metadata none \
          "$TMP/img/$kind/$slug.ppm" -o "$kind/$slug.webp"
        size=$(stat -c %s "$kind/$slug.webp")
        # hard budget: 45 KB per image
        if [ "$size" -lt 45000 ] || [ "$q" -le 50 ]; then break; fi
        q=$((q - 4))
      done
      echo "$kind/$slug.webp  q=$q  $size bytes"
    done
  done
fi

# ---------------------------------------------------------------- videos
if [ "$WHAT" = all ] || [ "$WHAT" = video ]; then
  mkdir -p video
  python3 "$HERE/make-images.py" "$TMP" --video-bg
  FONT=/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf
  [ -f "$FONT" ] || FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
  VOICE=(-v en-gb -s 150 -p 40)
  LEAD=0.5   # seconds of picture before the voice starts
  LEAD_MS=500
  TAIL=1.1   # seconds after the voice ends

  # question | first caption cue (the rest is the second cue) | accent colour | on-screen lines ('/' = break)
  QUESTIONS=(
    "You can go back ten years and undo one decision. Would you?|You can go back ten years and undo one decision.|0xf5a524|You can go back ten years/and undo one decision./Would you?"
    "A machine can tell you the exact date of your death. Do you look?|A machine can tell you the exact date of your death.|0x14b8a6|A machine can tell you/the exact date of your death./Do you look?"
    "Would you trade ten years of your life to see the world a hundred years from now?|Would you trade ten years of your life|0xff6b5b|Would you trade ten years/of your life to see the world/a hundred years from now?"
  )

  n=0
  for entry in "${QUESTIONS[@]}"; do
    n=$((n + 1))
    IFS='|' read -r QUESTION FIRST ACCENT LINES <<<"$entry"
    W="$TMP/v$n"
    mkdir -p "$W"
    espeak-ng "${VOICE[@]}" -w "$W/full.wav" "$QUESTION"
    espeak-ng "${VOICE[@]}" -w "$W/first.wav" "$FIRST"

    # Timing: speech span of the full sentence, and where the first cue's words
    # end (from speaking them alone), snapped to the nearest pause in the full take.
    # Writes the WebVTT file, the wrapped on-screen lines and the clip duration.
    python3 - "$W" "$QUESTION" "$FIRST" "$LEAD" "$TAIL" "video/time-travel-$n.vtt" "$LINES" <<'PY'
import sys, wave
import numpy as np

work, question, first, lead, tail, vtt, shown = sys.argv[1:8]
lead, tail = float(lead), float(tail)
WIN = 0.01

def envelope(path):
    w = wave.open(path)
    a = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16) / 32768.0
    n = int(w.getframerate() * WIN)
    k = len(a) // n
    return np.sqrt((a[: k * n].reshape(k, n) ** 2).mean(1)) > 0.02

full, part = envelope(work + "/full.wav"), envelope(work + "/first.wav")
on = np.flatnonzero(full)
start, end = on[0] * WIN, (on[-1] + 1) * WIN
guess = (np.flatnonzero(part)[-1] + 1) * WIN
# quiet runs inside the full take; take the one closest to the guess
runs, i = [], on[0]
while i < on[-1]:
    if not full[i]:
        j = i
        while not full[j]:
            j += 1
        runs.append((i * WIN, j * WIN))
        i = j
    else:
        i += 1
a, b = min(runs, key=lambda r: abs(r[0] - guess)) if runs else (guess, guess)
if abs(a - guess) > 0.35:
    a = b = guess
duration = round(lead + end + tail, 1)

def ts(t):
    ms = int(round(t * 1000))
    return "%02d:%02d:%02d.%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)

second = question[len(first):].strip()
assert question.startswith(first) and second
with open(vtt, "w") as f:
    f.write("WEBVTT\n\n")
    f.write("1\n%s --> %s\n%s\n\n" % (ts(lead + start), ts(lead + (a + b) / 2), first))
    f.write("2\n%s --> %s\n%s\n" % (ts(lead + (a + b) / 2), ts(min(duration, lead + end + 0.6)), second))
lines = shown.split("/")
assert " ".join(lines) == question, "on-screen lines must be the exact question"
for k, line in enumerate(lines):
    open("%s/line%d.txt" % (work, k), "w").write(line)
open(work + "/meta.sh", "w").write("DUR=%.1f\nNLINES=%d\n" % (duration, len(lines)))
PY
    # shellcheck disable=SC1091
    . "$W/meta.sh"

    # on-screen question: one drawtext per line, centred, lines fading in one by one
    FS=34; LH=46
    Y0=$(( 158 - NLINES * LH / 2 ))
    TEXT=""
    for ((k = 0; k < NLINES; k++)); do
      TEXT+=",drawtext=fontfile=$FONT:textfile=$W/line$k.txt:fontsize=$FS:fontcolor=0xfffaf3"
      TEXT+=":shadowcolor=0x0b0a10@0.6:shadowx=0:shadowy=2"
      TEXT+=":x=(w-text_w)/2:y=$((Y0 + k * LH)):alpha='clip((t-0.2-0.18*$k)/0.5,0,1)'"
    done
    DIR=$([ $((n % 2)) = 1 ] && echo 1 || echo -1)

    ffmpeg -loglevel error -y \
      -loop 1 -framerate 24 -i "$TMP/bg-$n.ppm" \
      -i "$W/full.wav" \
      -f lavfi -i "color=c=$ACCENT:s=640x4:r=24" \
      -filter_complex "
        [0:v]rotate=a='$DIR*0.09*t':ow=640:oh=360:bilinear=1,
             vignette=angle=PI/4.5,format=yuv420p$TEXT[bg];
        [bg][2:v]overlay=x='-w+w*t/$DUR':y=H-h:shortest=0,format=yuv420p[v];
        [1:a]adelay=${LEAD_MS}:all=1,apad,atrim=0:$DUR,
             aresample=44100[a]" \
      -map "[v]" -map "[a]" -t "$DUR" -r 24 \
      -c:v libx264 -profile:v main -level 3.0 -preset veryslow -tune animation \
      -crf 25 -maxrate 360k -bufsize 640k -g 48 -pix_fmt yuv420p \
      -c:a aac -b:a 56k -ac 1 \
      -movflags +faststart -map_metadata -1 \
      "video/time-travel-$n.mp4"

    if [ "${WEBM:-0}" = 1 ]; then
      ffmpeg -loglevel error -y -i "video/time-travel-$n.mp4" \
        -c:v libvpx-vp9 -b:v 0 -crf 40 -row-mt 1 -deadline good -cpu-used 2 \
        -c:a libopus -b:a 48k "video/time-travel-$n.webm"
    fi
    echo "video/time-travel-$n.mp4  ${DUR}s  $(stat -c %s "video/time-travel-$n.mp4") bytes"
  done
fi

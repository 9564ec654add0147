package onnx

import (
	"fmt"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/frontend"
)

// parseMode maps the `mode` attribute to a core mode for the schema in force.
// ONNX compares the attribute exactly, so "Reflect" is not "reflect".
func parseMode(version int, mode string) (pad.Mode, error) {
	switch {
	case mode == "" || mode == "constant":
		return pad.Constant, nil
	case mode == "reflect":
		return pad.Reflect, nil
	case mode == "edge":
		return pad.Edge, nil
	case mode == "wrap" && version >= 19:
		return pad.Wrap, nil
	case mode == "wrap":
		return 0, fmt.Errorf("%w: mode \"wrap\" needs opset 19 or later (Pad-%d in force)", pad.ErrInvalidSpec, version)
	}
	return 0, fmt.Errorf("%w: unknown mode %q for Pad-%d", pad.ErrInvalidSpec, mode, version)
}

// maxRank bounds the rank Spec accepts, so that an absurd rank is an error
// rather than a huge allocation (Pad's rank is that of a real shape).
const maxRank = 1 << 20

// Spec turns a Pad node's mode and pads (and, from opset 18, its optional
// axes input) into a core specification for an input of the given rank.
//
// The schema in force is the largest Pad version <= opset. Mode "" means
// "constant"; "wrap" needs opset 19. pads is laid out
// [x1_begin, x2_begin, ..., x1_end, x2_end, ...] in every opset (opset 1
// calls the attribute `paddings`), with 2*rank entries, or 2*len(axes) when
// axes is non-nil. axes (nil = absent, only valid from opset 18) may count
// from the back (-rank..rank-1); an axis out of range or given twice is an
// error. Axes not named get no padding. Negative pads crop, and in the
// non-constant modes the crop happens before the padding (pad.CropThenPad).
//
// Errors wrap pad.ErrInvalidSpec, or pad.ErrTooLarge for a pad that does not
// fit in int or a rank above 1<<20.
func Spec(opset int, mode string, rank int, pads, axes []int64) (pad.Spec, error) {
	version := schemaVersion(opset)
	if version == 0 {
		return pad.Spec{}, fmt.Errorf("%w: opset %d has no Pad (opsets start at 1)", pad.ErrInvalidSpec, opset)
	}
	m, err := parseMode(version, mode)
	if err != nil {
		return pad.Spec{}, err
	}
	if rank < 0 {
		return pad.Spec{}, fmt.Errorf("%w: negative rank %d", pad.ErrInvalidSpec, rank)
	}
	if rank > maxRank {
		return pad.Spec{}, fmt.Errorf("%w: rank %d exceeds %d", pad.ErrTooLarge, rank, maxRank)
	}
	if axes != nil && version < 18 {
		return pad.Spec{}, fmt.Errorf("%w: the axes input needs opset 18 or later (opset %d)", pad.ErrInvalidSpec, opset)
	}
	ps, err := frontend.Ints("pads", pads)
	if err != nil {
		return pad.Spec{}, err
	}
	s := pad.Spec{Mode: m, Before: make([]int, rank), After: make([]int, rank), Order: pad.CropThenPad}
	if axes == nil {
		if len(ps) != 2*rank {
			return pad.Spec{}, fmt.Errorf("%w: pads has %d entries, want 2*rank = %d", pad.ErrInvalidSpec, len(ps), 2*rank)
		}
		copy(s.Before, ps[:rank])
		copy(s.After, ps[rank:])
		return s, nil
	}
	n := len(axes)
	if len(ps) != 2*n {
		return pad.Spec{}, fmt.Errorf("%w: pads has %d entries, want 2*len(axes) = %d", pad.ErrInvalidSpec, len(ps), 2*n)
	}
	seen := make([]bool, rank)
	for i, a := range axes {
		if a < -int64(rank) || a >= int64(rank) {
			return pad.Spec{}, fmt.Errorf("%w: axes[%d] = %d is out of range [%d, %d]", pad.ErrInvalidSpec, i, a, -rank, rank-1)
		}
		ax := int(a)
		if ax < 0 {
			ax += rank
		}
		if seen[ax] {
			return pad.Spec{}, fmt.Errorf("%w: axes[%d] = %d repeats axis %d", pad.ErrInvalidSpec, i, a, ax)
		}
		seen[ax] = true
		s.Before[ax], s.After[ax] = ps[i], ps[n+i]
	}
	return s, nil
}

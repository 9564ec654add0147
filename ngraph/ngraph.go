// Package ngraph runs nGraph-style Pad operations (ngraph::op::v0::Pad, and
// XLA/StableHLO pad, which share its semantics) with the pad core.
//
// padding_below and padding_above may be negative; the input is extended
// first and then cropped (pad.PadThenCrop). padding_interior inserts pad
// values between neighbouring elements, before below/above apply to the
// dilated axis, and is only allowed in CONSTANT mode. pad_mode is CONSTANT
// (the default, also for ""), EDGE, REFLECT or SYMMETRIC, in any case. The
// pad value is used in CONSTANT mode and ignored otherwise.
//
// Every error wraps one of pad.ErrInvalidSpec, pad.ErrShapeMismatch,
// pad.ErrEmptyAxis or pad.ErrTooLarge, so errors.Is works on them.
package ngraph

import (
	"fmt"
	"strings"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/frontend"
)

var modes = map[string]pad.Mode{
	"": pad.Constant, "constant": pad.Constant, "edge": pad.Edge, "reflect": pad.Reflect, "symmetric": pad.Symmetric,
}

// Spec turns a Pad's attributes into a core specification (pad.PadThenCrop).
// interior may be nil (no interior padding); otherwise it has one entry per
// axis, like below and above.
//
// Errors wrap pad.ErrInvalidSpec (unknown mode; below, above and interior of
// different lengths; negative interior; non-zero interior outside CONSTANT
// mode) or pad.ErrTooLarge (a value that does not fit in int). Checks that
// need the input shape happen in Pad, or in the spec's OutShape.
func Spec(padMode string, below, above, interior []int64) (pad.Spec, error) {
	m, ok := modes[strings.ToLower(padMode)]
	if !ok {
		return pad.Spec{}, fmt.Errorf("%w: unknown pad_mode %q (want CONSTANT, EDGE, REFLECT or SYMMETRIC)", pad.ErrInvalidSpec, padMode)
	}
	if len(above) != len(below) || (interior != nil && len(interior) != len(below)) {
		return pad.Spec{}, fmt.Errorf("%w: padding_below has %d entries, padding_above %d, padding_interior %d", pad.ErrInvalidSpec, len(below), len(above), len(interior))
	}
	s := pad.Spec{Mode: m, Order: pad.PadThenCrop}
	var err error
	if s.Before, err = frontend.Ints("padding_below", below); err != nil {
		return pad.Spec{}, err
	}
	if s.After, err = frontend.Ints("padding_above", above); err != nil {
		return pad.Spec{}, err
	}
	if s.Interior, err = frontend.Ints("padding_interior", interior); err != nil {
		return pad.Spec{}, err
	}
	if s.Before == nil { // rank 0: empty, not absent
		s.Before, s.After = []int{}, []int{}
	}
	for i, k := range s.Interior {
		if k < 0 {
			return pad.Spec{}, fmt.Errorf("%w: padding_interior[%d] = %d is negative", pad.ErrInvalidSpec, i, k)
		}
		if k > 0 && m != pad.Constant {
			return pad.Spec{}, fmt.Errorf("%w: padding_interior[%d] = %d needs CONSTANT mode, not %s", pad.ErrInvalidSpec, i, k, strings.ToUpper(m.String()))
		}
	}
	return s, nil
}

// Pad runs the operation on raw storage: data holds the elements of the
// given shape, elemSize bytes each, row-major; padValue is one element, or
// nil/empty for zero, and is ignored (unchecked) outside CONSTANT mode.
//
// Errors are those of Spec, plus, from the shape: below/above of another
// length than the rank, a negative output length and positive pads of an
// empty axis in a non-constant mode (pad.ErrInvalidSpec,
// pad.ErrEmptyAxis); elemSize <= 0 (pad.ErrInvalidSpec); data or a
// constant-mode padValue of the wrong length (pad.ErrShapeMismatch); sizes
// that overflow (pad.ErrTooLarge).
func Pad(padMode string, below, above, interior []int64, elemSize int, shape []int, data []byte, padValue []byte) (out []byte, outShape []int, err error) {
	s, err := Spec(padMode, below, above, interior)
	if err != nil {
		return nil, nil, err
	}
	return frontend.PadBytes(shape, s, data, elemSize, padValue)
}

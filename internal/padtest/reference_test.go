package padtest

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"
)

// The reference must reproduce every stored vector before the front-end tests
// may trust it for the cases the vectors leave open.
func TestReferenceMatchesVectors(t *testing.T) {
	Dir = filepath.Join("..", "..", "..", "shared", "conformance") // two levels below the root
	files := map[string]bool{                                      // file -> pad-then-crop by default
		"onnx_backend.json": false, "ort_pad_test.json": false,
		"openvino_pad.json": true, "xla_pad.json": true,
	}
	for file, padThenCrop := range files {
		n := 0
		for _, c := range Load(t, file) {
			r := Ref{
				Shape: c.Shape, Bits: Bits[c.DType], Data: Bytes(t, c.Data), Mode: c.Mode,
				Before: c.PadsBegin, After: c.PadsEnd, Interior: c.Interior,
				PadThenCrop: padThenCrop || c.NegativePadsOrder == "pad_then_crop",
				Value:       c.ValueBytes(t),
			}
			out, shape, err := Reference(r)
			switch {
			case c.Error != nil && c.Limits != "":
				// OpenVINO's pad-size limits are not part of the semantics.
			case c.Error != nil && c.Name == "ort/Pad_Reflect_NegativeFront_PositiveBack/float32":
				if err != nil {
					t.Errorf("%s: by-design difference must be accepted: %v", c.Name, err)
				}
			case c.Error != nil:
				if err == nil {
					t.Errorf("%s: expected failure (%s), reference accepted", c.Name, *c.Error)
				}
			case err != nil:
				t.Errorf("%s: %v", c.Name, err)
			case !slices.Equal(shape, c.OutShape) || !bytes.Equal(out, Bytes(t, c.Out)):
				t.Errorf("%s: reference gives shape %v, want %v (or bytes differ)", c.Name, shape, c.OutShape)
			}
			n++
		}
		t.Logf("%s: %d cases checked against the reference", file, n)
	}
}

package main

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
)

// chart is a grouped bar chart: one group per case, one bar per
// implementation, the bar's height the implementation's median time ÷
// copy's median on a log scale (copy's bar is 1 by definition).
type chart struct {
	title    string
	subtitle string
	impls    []string    // bar names, in order within each group
	colors   []string    // one per impl
	cases    []string    // group names
	values   [][]float64 // values[case][impl]; NaN or <= 0: no bar
}

// Layout, in pixels.
const (
	svgBarW    = 15
	svgBarGap  = 2
	svgGroupGp = 18
	svgLeft    = 78
	svgRight   = 24
	svgTop     = 70
	svgPlotH   = 300
	svgBottom  = 95
)

// writeSVG writes the chart as a self-contained SVG document.
func writeSVG(w io.Writer, c chart) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	// The value range, in whole decades around the data and 1.
	lo, hi := 1.0, 1.0
	for _, vs := range c.values {
		for _, v := range vs {
			if v > 0 && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	dlo := math.Floor(math.Log10(lo))
	dhi := math.Ceil(math.Log10(hi))
	if dhi-dlo < 1 {
		dhi = dlo + 1
	}
	if math.Log10(lo)-dlo < 0.05 { // room below the smallest bar
		dlo--
	}
	y := func(v float64) float64 {
		return svgTop + svgPlotH*(dhi-math.Log10(v))/(dhi-dlo)
	}
	bottom := float64(svgTop + svgPlotH)

	nImpl := len(c.impls)
	groupW := nImpl*(svgBarW+svgBarGap) - svgBarGap + svgGroupGp
	plotW := max(len(c.cases)*groupW, 240)
	width := svgLeft + plotW + svgRight
	height := svgTop + svgPlotH + svgBottom

	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`+"\n", width, height, width, height)
	p(`<rect x="0" y="0" width="%d" height="%d" fill="white"/>`+"\n", width, height)
	p(`<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", svgLeft, esc(c.title))
	p(`<text x="%d" y="44" font-size="11" fill="#444">%s</text>`+"\n", svgLeft, esc(c.subtitle))

	// Grid and y axis: lines at 1, 2, 5 × each decade, labels on decades
	// (and on 2 and 5 when there are few decades).
	p(`<g class="axis" font-size="11" fill="#333">` + "\n")
	for d := dlo; d <= dhi; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if math.Log10(v) > dhi+1e-9 {
				break
			}
			yy := y(v)
			stroke, sw := "#e4e4e4", 1.0
			if m == 1 {
				stroke = "#c8c8c8"
			}
			p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="%.1f"/>`+"\n", svgLeft, yy, svgLeft+plotW, yy, stroke, sw)
			if m == 1 || dhi-dlo <= 3 {
				p(`<text x="%d" y="%.1f" text-anchor="end">%s×</text>`+"\n", svgLeft-6, yy+4, tickLabel(v))
			}
		}
	}
	p(`<line x1="%d" y1="%d" x2="%d" y2="%.1f" stroke="#333"/>`+"\n", svgLeft, svgTop, svgLeft, bottom)
	p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#333"/>`+"\n", svgLeft, bottom, svgLeft+plotW, bottom)
	p(`<text transform="translate(18 %d) rotate(-90)" text-anchor="middle" font-size="12">median time ÷ copy of the output (log scale, lower is faster)</text>`+"\n", svgTop+svgPlotH/2)
	p("</g>\n")

	// Bars, with their values above them.
	p(`<g class="bars">` + "\n")
	for ci, name := range c.cases {
		x0 := svgLeft + svgGroupGp/2 + ci*groupW
		for ii, impl := range c.impls {
			if ci >= len(c.values) || ii >= len(c.values[ci]) {
				continue
			}
			v := c.values[ci][ii]
			if !(v > 0) || math.IsInf(v, 0) {
				continue
			}
			x := x0 + ii*(svgBarW+svgBarGap)
			top := y(v)
			p(`<rect class="bar" data-case="%s" data-impl="%s" x="%d" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s %s: %s× copy</title></rect>`+"\n",
				esc(name), esc(impl), x, top, svgBarW, bottom-top, c.colors[ii%len(c.colors)], esc(name), esc(impl), fmtRatio(v))
			p(`<text transform="translate(%.1f %.1f) rotate(-90)" font-size="9" fill="#222">%s</text>`+"\n", float64(x)+svgBarW/2+3, top-3, fmtRatio(v))
		}
		cx := float64(x0) + float64(groupW-svgGroupGp)/2
		p(`<text transform="translate(%.1f %.1f) rotate(-35)" text-anchor="end" font-size="11">%s</text>`+"\n", cx+4, bottom+14, esc(name))
	}
	p("</g>\n")

	// The copy line at 1×.
	p(`<line class="ref" x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#b00" stroke-width="1.2" stroke-dasharray="5 3"/>`+"\n", svgLeft, y(1), svgLeft+plotW, y(1))

	// Legend, above the plot on the right (text widths estimated at 6.5
	// pixels a character).
	p(`<g class="legend" font-size="11">` + "\n")
	legendW := 0
	for _, label := range c.impls {
		legendW += 16 + int(6.5*float64(len([]rune(label)))) + 14
	}
	lx := svgLeft + plotW - legendW + 14
	for ii, label := range c.impls {
		p(`<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`+"\n", lx, svgTop-22, c.colors[ii%len(c.colors)])
		p(`<text x="%d" y="%d">%s</text>`+"\n", lx+16, svgTop-12, esc(label))
		lx += 16 + int(6.5*float64(len([]rune(label)))) + 14
	}
	p("</g>\n")
	p("</svg>\n")
	return bw.Flush()
}

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// tickLabel prints an axis value: 1, 20, 500, 0.5, 0.02.
func tickLabel(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// fmtRatio prints a ratio with about three significant digits.
func fmtRatio(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 0.1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

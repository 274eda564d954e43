module rollbook.example/goverify

go 1.19

require golang.org/x/mod v0.7.0

// Debian's golang-golang-x-mod-dev: built offline (GOPROXY=off GOFLAGS=-mod=mod), nothing downloaded.
replace golang.org/x/mod => /usr/share/gocode/src/golang.org/x/mod

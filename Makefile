# Shortcuts for the commands in README.md.
TEST_DATABASE_URL ?= postgres://backoffice:backoffice@127.0.0.1:5432/backoffice_test

.PHONY: run build test test-postgres e2e format lint ci

run:
	swift run backoffice

build:
	swift build --build-tests

test:
	swift test

test-postgres:
	TEST_DATABASE_URL=$(TEST_DATABASE_URL) swift test

e2e: build
	python3 -m pytest e2e -q

format:
	swift format --in-place --recursive Sources Tests Package.swift

lint:
	swift format lint --strict --recursive Sources Tests Package.swift

ci:
	bash .ci/run

"""Dialect conversions, one module per source and target: conversion/<src>_to_<dst>.py."""

/*
 * The games' environments (collections): the engine's numeric ids a file may store instead of
 * the name, and the size of one block cell in each (docs/formats/gbx.md "Collections").
 */
#include <string.h>
#include "core/gbx/map/environments.h"

/* The engine's collection ids: its id -> name table, and where real files say otherwise, what
 * they say. A TM2020 map stores 26 where its header XML says envir="Stadium"; the 2026 builds
 * store 16 for envir="RedIsland" (the older table's test id TMTest9) and 28 for "BlueBay". */
static const struct {
    uint32_t id;
    const char *name;
} COLLECTIONS[] = {
    {0, "Desert"},      {1, "Snow"},        {2, "Rally"},       {3, "Island"},     {4, "Bay"},
    {5, "Coast"},       {6, "Stadium"},     {7, "Basic"},       {8, "Plain"},      {9, "Moon"},
    {10, "Toy"},        {11, "Valley"},     {12, "Canyon"},     {13, "Lagoon"},    {14, "Arena"},
    {15, "TMTest8"},    {16, "RedIsland"},    {17, "TMCommon"},   {18, "Canyon4"},   {19, "Canyon256"},
    {20, "Valley4"},    {21, "Valley256"},  {22, "Lagoon4"},    {23, "Lagoon256"}, {24, "Stadium4"},
    {25, "Stadium256"}, {26, "Stadium"},    {27, "Voxel"},      {28, "BlueBay"},      {100, "History"},  {101, "Society"},
    {102, "Galaxy"},    {103, "QMTest1"},   {104, "QMTest2"},   {105, "QMTest3"},  {200, "Gothic"},
    {201, "Paris"},     {202, "Storm"},     {203, "Cryo"},      {204, "Meteor"},   {205, "Meteor4"},
    {206, "Meteor256"}, {207, "SMTest3"},   {299, "SMCommon"},  {10000, "Vehicles"}, {10001, "Orbital"},
    {10002, "Actors"},  {10003, "Common"},
};

const char *gbx_collection_name(uint32_t id)
{
    for (size_t i = 0; i < sizeof COLLECTIONS / sizeof COLLECTIONS[0]; i++)
        if (COLLECTIONS[i].id == id) return COLLECTIONS[i].name;
    return NULL;
}

/* One block cell in metres (x, height, z). TM 2003-2006 names: Speed is Desert, Alpine is Snow. */
static const struct {
    const char *name;
    float x, y, z;
} CELLS[] = {
    {"Canyon", 64, 16, 64}, {"Island", 64, 8, 64}, {"Coast", 16, 4, 16},  {"Desert", 32, 16, 32},
    {"Speed", 32, 16, 32},  {"Snow", 32, 16, 32},  {"Alpine", 32, 16, 32},
};

void gbx_environment_cell(const char *environment, float metres[3])
{
    metres[0] = 32, metres[1] = 8, metres[2] = 32; /* Stadium, Valley, Lagoon, Bay, Rally, TM2020 */
    for (size_t i = 0; environment && i < sizeof CELLS / sizeof CELLS[0]; i++)
        if (strncmp(environment, CELLS[i].name, strlen(CELLS[i].name)) == 0) {
            metres[0] = CELLS[i].x, metres[1] = CELLS[i].y, metres[2] = CELLS[i].z;
            return;
        }
}
